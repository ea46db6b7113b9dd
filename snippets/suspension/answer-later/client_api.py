"""Does the Python Client have a method that takes a stored Answer? No model involved."""
import inspect

from toolnexus import Client

methods = {name: inspect.signature(fn) for name, fn in inspect.getmembers(Client, inspect.isfunction)
           if not name.startswith("_")}
print(f"ask, run and stream among the public methods: {all(m in methods for m in ('ask', 'run', 'stream'))}")
takes = [name for name, sig in methods.items()
         if any("answer" in p.name.lower() or "Answer" in str(p.annotation) for p in sig.parameters.values())]
print(f"taking an Answer: {', '.join(takes) or 'none'}")
