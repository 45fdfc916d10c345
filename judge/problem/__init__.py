"""Problem folders: the strict ``problem.toml`` schema, its arithmetic and dtypes, and the loader
that finds folders and their trusted ``reference.py``."""
