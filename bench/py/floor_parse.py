"""Turn the text output of the shared floor programs into JSON result lines."""
import json
import re
import sys

# sortbench.c: "<name> Q=.. L=..: median 30.9 ms = ..."; gosort: "<name> median 82.7 ms = ..."
LINE = re.compile(r"^(?P<name>.+?)\s+(?:Q=\d+ L=\d+: )?median\s+(?P<ms>[\d.]+) ms")


def main():
    peer, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        for line in f:
            m = LINE.match(line.strip())
            if m:
                print(json.dumps({"peer": peer, "what": "floor " + m.group("name").strip(),
                                  "seconds": float(m.group("ms")) / 1e3}))


if __name__ == "__main__":
    main()
