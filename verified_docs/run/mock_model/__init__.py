"""A scripted, OpenAI-compatible model on 127.0.0.1: the only fake in the project.

In: a run's ``model`` steps. Out: replies over HTTP and every request recorded. ``script``
decides each reply; ``provider_rules`` rejects what a real provider rejects; ``server`` serves
them (``anthropic`` translates Anthropic's Messages format at the edge).
"""

from verified_docs.run.mock_model.server import MockModel, RecordedRequest

__all__ = ["MockModel", "RecordedRequest"]
