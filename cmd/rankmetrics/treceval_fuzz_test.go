package main

import "testing"

func FuzzTrecEvalArgs(f *testing.F) {
	f.Add("-q -m all_trec -c q r")
	f.Add("--meas=P.5 --compat 9.0.8 -l2 -- -x r")
	f.Add("-qcnJ -M 5 --Judged q -")
	f.Fuzz(func(t *testing.T, s string) {
		args := splitArgs(s)
		_, _, _ = parseTrecEvalOptions(args)
	})
}

func splitArgs(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}
