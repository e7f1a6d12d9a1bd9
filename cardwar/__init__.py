"""cardwar: play Peace (War in reverse) and War online with friends."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("cardwar")
except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0.0.0"
