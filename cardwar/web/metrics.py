"""``GET /metrics``: the Prometheus exposition of :mod:`cardwar.obs.metrics`.

The endpoint lives in the web layer so that counting (which the table
service does) never imports Starlette.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from cardwar.obs.metrics import metrics_response, set_tables_in_memory

__all__ = ["metrics_endpoint"]


async def metrics_endpoint(request: Request) -> Response:
    """Starlette/FastAPI endpoint for ``GET /metrics``: the exposition, status 200.

    Mount with ``app.add_route("/metrics", metrics_endpoint, include_in_schema=False)``.
    Content negotiation follows the request's ``Accept`` header (see
    :func:`metrics_response`); responses are never cached. This process's
    ``cardwar_tables_in_memory`` is brought up to date first.
    """
    tables = getattr(request.app.state, "tables", None)
    if tables is not None:
        set_tables_in_memory(tables.cache.by_status())
    body, content_type = metrics_response(request.headers.get("accept"))
    return Response(
        body, headers={"Content-Type": content_type, "Cache-Control": "no-store"}
    )
