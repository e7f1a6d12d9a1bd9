"""The web shell: FastAPI app, pages, WebSocket endpoint, i18n."""
