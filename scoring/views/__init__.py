"""Pages (plain function views on an htmx-aware request; thin: parse, call, render)."""
