#!/usr/bin/env python3
"""Port ../shared/parity/tfr_map_cases.json (cases and numbers from TF-Ranking's
own tests and docstrings) into testdata/tfr/map_cases.jsonl, in the
`rankmetrics compute` case format plus an "expect" object.

Usage: python3 parity/port_shared_cases.py [SHARED_JSON] [OUT_JSONL]
"""
import json
import sys

src = sys.argv[1] if len(sys.argv) > 1 else "../shared/parity/tfr_map_cases.json"
dst = sys.argv[2] if len(sys.argv) > 2 else "testdata/tfr/map_cases.jsonl"

with open(src) as f:
    cases = json.load(f)
with open(dst, "w") as out:
    for c in cases:
        weights = c["weights"]
        if c.get("weights_effective") is not None:
            # 1-D sample_weight of length L: TF broadcasts it per position.
            weights = c["weights_effective"]
        line = {
            "id": c["name"],
            "metric": "map",
            "topn": c["topn"],
            "ragged": c["ragged"],
            "dtype": "float32",
            "ties": "stable",
            "updates": [{"labels": c["labels"], "predictions": c["predictions"], "weights": weights}],
            "expect": {
                "source": c["source"],
                "asserted": c["asserted"],
                "value": c["expected"],
                "result_f32": c["ref_f32"],
                "per_list": [c["ref_per_list_map_f32"]],
                "list_weights": [c["ref_per_list_weights_f32"]],
                "tf_per_list": c.get("expected_per_list"),
                "tf_list_weights": c.get("expected_per_list_weights"),
            },
        }
        out.write(json.dumps(line) + "\n")
print(f"wrote {len(cases)} cases to {dst}")
