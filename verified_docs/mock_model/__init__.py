"""A scripted, OpenAI-compatible model on 127.0.0.1: the only fake in the project.

``script`` decides each reply from the scenario's steps; ``provider_rules`` rejects what a real
provider rejects; ``server`` serves both over HTTP and records every request.
"""
from .server import MockModel, RecordedRequest

__all__ = ["MockModel", "RecordedRequest"]
