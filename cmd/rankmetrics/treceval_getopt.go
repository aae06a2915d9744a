package main

import (
	"fmt"
	"strings"
)

// trec_eval parses its command line with GNU getopt_long; this is that
// parser's behaviour for trec_eval's option set (short options clustered,
// arguments attached or separate, long options abbreviated to any unique
// prefix, options and operands in any order, "--" ending options). It is
// a few dozen lines, so it is kept here rather than taking a dependency.

// teOpt is one trec_eval option.
type teOpt struct {
	short  byte
	long   string
	hasArg bool
}

var teOpts = []teOpt{
	{'h', "help", false},
	{'v', "version", false},
	{'q', "query_eval_wanted", false},
	{'m', "measure", true},
	{'c', "complete_rel_info_wanted", false},
	{'l', "level_for_rel", true},
	{'n', "nosummary", false},
	{'D', "Debug_level", true},
	{'J', "Judged_docs_only", false},
	{'N', "Number_docs_in_coll", true},
	{'M', "Max_retrieved_per_topic", true},
	{'R', "Rel_info_format", true},
	{'T', "Results_format", true},
	{'o', "Output_old_results_format", true},
	{'Z', "Zscore", true},
}

// teArg is one parsed option.
type teArg struct {
	opt byte // 0 for --compat
	val string
}

// parseTrecEvalArgs splits args into options and operands.
func parseTrecEvalArgs(args []string) (opts []teArg, operands []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			return opts, operands, nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			if name == "compat" {
				if !hasVal {
					if i+1 >= len(args) {
						return nil, nil, fmt.Errorf("option --compat needs a version (10.0 or 9.0.8)")
					}
					i++
					val = args[i]
				}
				opts = append(opts, teArg{0, val})
				continue
			}
			o, err := findLong(name)
			if err != nil {
				return nil, nil, err
			}
			if o.hasArg && !hasVal {
				if i+1 >= len(args) {
					return nil, nil, fmt.Errorf("option --%s requires an argument", o.long)
				}
				i++
				val = args[i]
			} else if !o.hasArg && hasVal {
				return nil, nil, fmt.Errorf("option --%s does not take an argument", o.long)
			}
			opts = append(opts, teArg{o.short, val})
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				o := findShort(a[j])
				if o == nil {
					return nil, nil, fmt.Errorf("invalid option -- '%c'", a[j])
				}
				if !o.hasArg || o.short == 'o' {
					opts = append(opts, teArg{o.short, ""})
					continue
				}
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, nil, fmt.Errorf("option requires an argument -- '%c'", o.short)
					}
					i++
					val = args[i]
				}
				opts = append(opts, teArg{o.short, val})
				break
			}
		default:
			operands = append(operands, a)
		}
	}
	return opts, operands, nil
}

func findShort(c byte) *teOpt {
	for i := range teOpts {
		if teOpts[i].short == c {
			return &teOpts[i]
		}
	}
	return nil
}

// findLong finds a long option by its name or a unique prefix of it.
func findLong(name string) (*teOpt, error) {
	var found *teOpt
	n := 0
	for i := range teOpts {
		if teOpts[i].long == name {
			return &teOpts[i], nil
		}
		if name != "" && strings.HasPrefix(teOpts[i].long, name) {
			found = &teOpts[i]
			n++
		}
	}
	switch n {
	case 0:
		return nil, fmt.Errorf("unrecognized option '--%s'", name)
	case 1:
		return found, nil
	}
	return nil, fmt.Errorf("option '--%s' is ambiguous", name)
}
