#!/usr/bin/env python3
"""Fill the double-brace placeholders of deploy/nginx/webp-bridge.conf.

usage: render.py TEMPLATE OUTPUT NAME=VALUE...

Every placeholder must be given and every given name must be used: a typo
fails here rather than in nginx. `make e2e-cluster` renders the template
this way; a deployment can too, once per host.
"""
import re
import sys


def render(template, values):
    """The template with every {{NAME}} replaced; raises ValueError naming what is missing or unused."""
    wanted = set(re.findall(r"\{\{([A-Z_]+)\}\}", template))
    missing, unused = sorted(wanted - values.keys()), sorted(values.keys() - wanted)
    if missing or unused:
        raise ValueError(f"placeholders missing: {missing or 'none'}; unknown names: {unused or 'none'}")
    return re.sub(r"\{\{([A-Z_]+)\}\}", lambda m: values[m.group(1)], template)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip())
    values = dict(arg.split("=", 1) for arg in argv[2:])
    with open(argv[0]) as f:
        template = f.read()
    try:
        text = render(template, values)
    except ValueError as error:
        sys.exit(f"{argv[0]}: {error}")
    with open(argv[1], "w") as f:
        f.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
