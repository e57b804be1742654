"""Reading a JSON file the command line was given: an error names the file."""
import json


def read(path, error):
    """The JSON document of `path`; raises `error("PATH: why")` when it cannot be read or parsed."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise error(f"{path}: {e}") from None
