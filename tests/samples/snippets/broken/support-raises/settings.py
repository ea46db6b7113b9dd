"""A support module that fails while the program imports it."""


def load_settings() -> dict[str, str]:
    raise KeyError("approver")


SETTINGS = load_settings()
