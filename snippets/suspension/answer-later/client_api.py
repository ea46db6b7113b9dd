"""Does the Python Client have a method that takes a stored Answer? No
model involved."""
import inspect

from toolnexus import Client

methods = {
    name: inspect.signature(fn)
    for name, fn in inspect.getmembers(Client, inspect.isfunction)
    if not name.startswith("_")
}
present = all(m in methods for m in ("ask", "run", "stream"))
print(f"ask, run and stream among the public methods: {present}")


def mentions_answer(param: inspect.Parameter) -> bool:
    """A parameter named like an answer, or annotated with Answer."""
    return "answer" in param.name.lower() or "Answer" in str(param.annotation)


takes = [
    name
    for name, sig in methods.items()
    if any(mentions_answer(p) for p in sig.parameters.values())
]
print(f"taking an Answer: {', '.join(takes) or 'none'}")
