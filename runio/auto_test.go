package runio

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// naiveTREC joins a qrels and a run text the simplest way: every line cut
// with strings.Fields (blank lines and '#' comment lines skipped), the run
// grouped by qid in file order, the queries in the order of CompareQID.
// It is the reference of UnsortedAuto, written without runio's readers.
func naiveTREC(t *testing.T, qrels, run string) []Query {
	t.Helper()
	type judged struct {
		docs []string
		rels []float64
	}
	js := map[string]*judged{}
	ranked := map[string]*Query{}
	for _, l := range strings.Split(qrels, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(l, "#") {
			continue
		}
		j := js[f[0]]
		if j == nil {
			j = &judged{}
			js[f[0]] = j
		}
		rel, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			t.Fatal(err)
		}
		j.docs = append(j.docs, f[2])
		j.rels = append(j.rels, rel)
	}
	for _, l := range strings.Split(run, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		q := ranked[f[0]]
		if q == nil {
			q = &Query{QID: f[0]}
			ranked[f[0]] = q
		}
		s, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			t.Fatal(err)
		}
		q.Docs = append(q.Docs, f[2])
		q.Scores = append(q.Scores, s)
	}
	var qids []string
	for q := range js {
		qids = append(qids, q)
	}
	for q := range ranked {
		if js[q] == nil {
			qids = append(qids, q)
		}
	}
	slices.SortFunc(qids, CompareQID)
	var out []Query
	for _, qid := range qids {
		q, j := ranked[qid], js[qid]
		if q == nil {
			q = &Query{QID: qid, Match: MatchQrelsOnly}
		}
		if j == nil {
			q.Match = MatchRunOnly
			j = &judged{}
		}
		for _, d := range q.Docs {
			l := 0.0
			if k := slices.Index(j.docs, d); k >= 0 {
				l = j.rels[k]
			}
			q.Labels = append(q.Labels, l)
		}
		for k, d := range j.docs {
			if !slices.Contains(q.Docs, d) {
				q.UnrankedLabels = append(q.UnrankedLabels, j.rels[k])
				q.UnrankedDocs = append(q.UnrankedDocs, d)
			}
		}
		out = append(out, *q)
	}
	return out
}

// autoPair generates a qrels and a run file laid out as layout says.
func autoPair(rng *rand.Rand, layout string) (qrels, run string) {
	nq := 1 + rng.IntN(25)
	type line struct{ qid, text string }
	var ql, rl []line
	for i := range nq {
		qid := strconv.Itoa(1 + rng.IntN(40))
		if layout == "natural" || rng.IntN(4) == 0 {
			qid = "q" + strconv.Itoa(i+1)
		}
		nd := 1 + rng.IntN(8)
		inRun, inQrels := rng.IntN(8) != 0, rng.IntN(8) != 0
		for d := range nd {
			doc := fmt.Sprintf("D%d-%d", i, d)
			sep := " "
			if rng.IntN(3) == 0 {
				sep = "\t"
			}
			if inQrels && rng.IntN(3) != 0 {
				ql = append(ql, line{qid, strings.Join([]string{qid, "0", doc, strconv.Itoa(rng.IntN(3))}, sep)})
			}
			if inRun && rng.IntN(4) != 0 {
				f := []string{qid, "Q0", doc, strconv.Itoa(d + 1), strconv.Itoa(rng.IntN(100)), "r"}
				if rng.IntN(3) == 0 {
					f = append(f, "extra-col", "42")
				}
				rl = append(rl, line{qid, strings.Join(f, sep)})
			}
		}
	}
	// Lines are generated grouped by qid (a qid drawn twice is scattered).
	arrange := func(ls []line) []line {
		switch layout {
		case "sorted":
			slices.SortStableFunc(ls, func(a, b line) int { return CompareQID(a.qid, b.qid) })
		case "bytewise": // as sort(1) orders them: "19" before "2"
			slices.SortStableFunc(ls, func(a, b line) int { return strings.Compare(a.qid, b.qid) })
		case "natural":
		case "blocks":
			slices.SortStableFunc(ls, func(a, b line) int { return CompareQID(a.qid, b.qid) })
			var blocks [][]line
			for i := 0; i < len(ls); {
				j := i
				for j < len(ls) && ls[j].qid == ls[i].qid {
					j++
				}
				blocks = append(blocks, ls[i:j])
				i = j
			}
			rng.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
			ls = slices.Concat(blocks...)
		case "shuffled":
			rng.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
		}
		return ls
	}
	text := func(ls []line, qrels bool) string {
		var b strings.Builder
		for _, l := range ls {
			switch rng.IntN(12) {
			case 0:
				b.WriteString("\n")
			case 1:
				b.WriteString("# a comment\n")
			}
			b.WriteString(l.text)
			if rng.IntN(4) == 0 {
				b.WriteString("\r")
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	return text(arrange(ql), true), text(arrange(rl), false)
}

// oneReader hides every method of a reader but Read: a pipe.
type oneReader struct{ io.Reader }

// TestUnsortedAuto: whatever the line order, UnsortedAuto gives the
// queries of the naive join, in qid order, from files (scanned, then
// streamed, read by range or gathered), gzip, pipes and in-memory readers.
func TestUnsortedAuto(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(19, 1))
	opts := Options{Unsorted: UnsortedAuto, KeepDocs: true}
	for _, layout := range []string{"sorted", "bytewise", "natural", "blocks", "shuffled"} {
		for i := range 40 {
			qrels, run := autoPair(rng, layout)
			if strings.TrimSpace(qrels)+strings.TrimSpace(run) == "" {
				continue
			}
			want := naiveTREC(t, qrels, run)
			name := fmt.Sprintf("%s/%d", layout, i)
			qp, rp := filepath.Join(dir, "q"), filepath.Join(dir, "r")
			write := func(p, s string, gz bool) {
				if gz {
					writeGzip(t, p, s)
				} else if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, gz := range []bool{false, true} {
				write(qp, qrels, gz)
				write(rp, run, !gz && i%2 == 0)
				for _, small := range []int{0, 64} {
					o := opts
					o.BufferSize = small
					got, err := readAll(openAuto(t, []string{qp, rp}, o))
					if err != nil {
						t.Fatalf("%s gz %v: %v", name, gz, err)
					}
					checkAuto(t, name, got, want)
				}
			}
			for _, seek := range []bool{false, true} {
				var q, r io.Reader = strings.NewReader(qrels), strings.NewReader(run)
				if !seek {
					q, r = oneReader{q}, oneReader{r}
				}
				rd, _ := NewTRECReader(bg, q, r, "q", "r", opts)
				got, err := readAll(rd)
				if err != nil {
					t.Fatalf("%s seek %v: %v", name, seek, err)
				}
				checkAuto(t, name, got, want)
			}
		}
	}
}

func openAuto(t *testing.T, paths []string, o Options) Reader {
	t.Helper()
	r, err := Open(bg, paths, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func checkAuto(t *testing.T, name string, got, want []Query) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d queries, want %d", name, len(got), len(want))
	}
	for i := range got {
		if d := diffQuery(got[i], want[i]); d != "" {
			t.Fatalf("%s: query %d: %s", name, i, d)
		}
	}
}

// TestUnsortedAutoLayouts: a file is streamed when sorted, read by range
// when its qids are in blocks, gathered when its lines are scattered.
func TestUnsortedAutoLayouts(t *testing.T) {
	dir := t.TempDir()
	qrels := "1 0 a 1\n2 0 b 1\n"
	for _, c := range []struct {
		name, run string
		want      string
	}{
		{"sorted", "1 Q0 a 1 1 r\n1 Q0 c 2 0 r\n2 Q0 b 1 1 r\n", "*runio.blockStream"},
		{"blocks", "2 Q0 b 1 1 r\n1 Q0 a 1 1 r\n1 Q0 c 2 0 r\n", "*runio.rangeSource"},
		{"natural", "q9 Q0 b 1 1 r\nq10 Q0 a 1 1 r\n", "*runio.rangeSource"},
		{"scattered", "1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n1 Q0 c 2 0 r\n", "*runio.gatherSource"},
	} {
		qp, rp := filepath.Join(dir, "q"), filepath.Join(dir, "r")
		os.WriteFile(qp, []byte(qrels), 0o644)
		os.WriteFile(rp, []byte(c.run), 0o644)
		r := openAuto(t, []string{qp, rp}, Options{Unsorted: UnsortedAuto})
		var q Query
		r.Next(&q)
		if got := fmt.Sprintf("%T", r.(*trecReader).rs); got != c.want {
			t.Errorf("%s: run read by %s, want %s", c.name, got, c.want)
		}
		if got := fmt.Sprintf("%T", r.(*trecReader).qs); got != "*runio.blockStream" {
			t.Errorf("%s: sorted qrels read by %s", c.name, got)
		}
		r.Close()
	}
	// Gzip: read once, streamed behind its reading (gathered when out of
	// order within the lag).
	for _, c := range []struct{ run, want string }{
		{"1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n", "*runio.lagStream"},
		{"2 Q0 b 1 1 r\n1 Q0 a 1 1 r\n", "*runio.lagStream"},
	} {
		qp, rp := filepath.Join(dir, "q"), filepath.Join(dir, "r.gz")
		os.WriteFile(qp, []byte(qrels), 0o644)
		writeGzip(t, rp, c.run)
		r := openAuto(t, []string{qp, rp}, Options{Unsorted: UnsortedAuto})
		var q Query
		if err := r.Next(&q); err != nil || q.QID != "1" {
			t.Fatalf("gzip %q: first query %q, %v", c.run, q.QID, err)
		}
		if got := fmt.Sprintf("%T", r.(*trecReader).rs); got != c.want {
			t.Errorf("gzip %q: run read by %s, want %s", c.run, got, c.want)
		}
		r.Close()
	}
}

// TestUnsortedAutoErrors: a bad line is reported with its file and line
// number however the file is read (here: by range, in qid order, so that
// qid 1's line 3 is read before qid 2's line 1).
func TestUnsortedAutoErrors(t *testing.T) {
	dir := t.TempDir()
	qp, rp := filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "run.txt")
	os.WriteFile(qp, []byte("1 0 a 1\n2 0 b 1\n"), 0o644)
	for _, c := range []struct{ run, want string }{
		{"2 Q0 b 1 1 r\n\n1 Q0 a 1 x r\n", `run.txt:3: field score: value "x": not a number`},
		{"2 Q0 b 1 1 r\n1 Q0 a 1 1 r\n1 Q0 b 1\n", `run.txt:3: line "1 Q0 b 1": a run line has 6 fields (qid Q0 docno rank score tag), found 4: it looks like a qrels line; did you swap QRELS and RUN? trec_eval's order is QRELS RUN`},
		{"1 Q0 a 1 1 r\n\v\n", `run.txt:2: line "\v": a run line has 6 fields (qid Q0 docno rank score tag), found 0`},
		{"1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n1 Q0 a 2 1 r\n", `run.txt:3: field docno: value "a": duplicate document for qid "1" (first at line 1; --dedupe first or --dedupe max keeps one)`},
	} {
		os.WriteFile(rp, []byte(c.run), 0o644)
		_, err := readAll(openAuto(t, []string{qp, rp}, Options{Unsorted: UnsortedAuto}))
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("run %q: error %v, want %s", c.run, err, c.want)
		}
	}
	// A line over the limit stops the scan; the file is then gathered,
	// and its parser reports the line.
	os.WriteFile(rp, []byte("2 Q0 b 1 1 r\n1 Q0 a 1 1 r\n1 Q0 "+strings.Repeat("x", 100)+" 2 1 r\n"), 0o644)
	_, err := readAll(openAuto(t, []string{qp, rp}, Options{Unsorted: UnsortedAuto, MaxLineBytes: 20}))
	if want := "run.txt:3: line longer than 20 bytes (--max-line-bytes raises the limit)"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("long line: error %v, want %s", err, want)
	}
}

// TestUnsortedAutoSingleFile: a single-file input whose first rows are out
// of order is gathered (a shuffled file, q9 before q10); a sorted one
// streams; one whose order breaks only after the read-ahead is an error
// naming --unsorted group, never a query evaluated twice.
func TestUnsortedAutoSingleFile(t *testing.T) {
	tsv := func(qids ...string) string {
		var b strings.Builder
		b.WriteString("qid\tlabel\tscore\n")
		for i, q := range qids {
			fmt.Fprintf(&b, "%s\t%d\t%d\n", q, i%2, i)
		}
		return b.String()
	}
	for _, c := range []struct {
		name, in string
		grouped  bool
	}{
		{"shuffled", tsv("b", "a", "b", "c", "a"), true},
		{"natural", tsv("q1", "q2", "q9", "q10", "q10", "q11"), true},
		{"bytewise", tsv("1", "10", "19", "2", "20"), true},
		{"sorted", tsv("1", "1", "2", "10", "q", "q"), false},
	} {
		opts := Options{Unsorted: UnsortedAuto}
		r, _ := NewDelimitedReader(bg, strings.NewReader(c.in), "f.tsv", '\t', opts)
		got, err := readAll(r)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		opts.Unsorted = UnsortedGroup
		rg, _ := NewDelimitedReader(bg, strings.NewReader(c.in), "f.tsv", '\t', opts)
		want, _ := readAll(rg)
		checkQueries(t, got, want)
		if g := r.(*streamReader).opts.Unsorted == UnsortedGroup; g != c.grouped {
			t.Errorf("%s: gathered %v, want %v", c.name, g, c.grouped)
		}
	}
	// Sorted for the whole read-ahead, then out of order.
	qids := make([]string, 0, autoWindow+2)
	for i := range autoWindow + 1 {
		qids = append(qids, strconv.Itoa(i/10))
	}
	qids = append(qids, "0")
	r, _ := NewDelimitedReader(bg, strings.NewReader(tsv(qids...)), "f.tsv", '\t', Options{Unsorted: UnsortedAuto})
	_, err := readAll(r)
	want := fmt.Sprintf(`f.tsv:%d: field qid: value "0": input is not sorted by qid: it comes after "%d", and the first %d rows were sorted, so the input is streamed; rerun with --unsorted group to read it in any order, held in memory`, autoWindow+3, autoWindow/10, autoWindow)
	if err == nil || err.Error() != want {
		t.Errorf("late break: error %v, want %s", err, want)
	}
}

// TestUnsortedAutoReadAhead: a TREC input that cannot be read again (a
// pipe) longer than the read-ahead streams when its first lines are
// sorted (the read-ahead's last qid going on in the stream), is gathered
// when they are not, and a qid out of order after them is an error naming
// --unsorted group.
func TestUnsortedAutoReadAhead(t *testing.T) {
	var sorted strings.Builder
	const per = 7 // autoWindow is not a multiple of 7: a qid spans the boundary
	n := autoWindow/per + 40
	for q := range n {
		for d := range per {
			fmt.Fprintf(&sorted, "%d Q0 d%d %d %d r\n", q, d, d+1, per-d)
		}
	}
	qrels := "0 0 d0 1\n5 0 d3 1\n" + fmt.Sprintf("%d 0 d1 2\n%d 0 d6 1\n%d 0 x 1\n", autoWindow/per, n-1, n+5)
	lines := strings.SplitAfter(sorted.String(), "\n")
	lines = lines[:len(lines)-1]
	shuffled := slices.Clone(lines)
	shuffled[0], shuffled[len(shuffled)-1] = shuffled[len(shuffled)-1], shuffled[0]
	for _, run := range []string{sorted.String(), strings.Join(shuffled, "")} {
		want := naiveTREC(t, qrels, run)
		r, _ := NewTRECReader(bg, strings.NewReader(qrels), oneReader{strings.NewReader(run)}, "q", "r", Options{Unsorted: UnsortedAuto, KeepDocs: true})
		got, err := readAll(r)
		if err != nil {
			t.Fatal(err)
		}
		checkAuto(t, "read ahead", got, want)
	}
	// Out of order after the read-ahead: an error, not a wrong number.
	late := slices.Clone(lines)
	late[len(late)-1] = "0 Q0 late 1 1 r\n"
	r, _ := NewTRECReader(bg, strings.NewReader(qrels), oneReader{strings.NewReader(strings.Join(late, ""))}, "q", "r", Options{Unsorted: UnsortedAuto})
	_, err := readAll(r)
	if err == nil || !strings.Contains(err.Error(), "r:"+strconv.Itoa(len(late))+": field qid: value \"0\": input is not sorted by qid") || !strings.Contains(err.Error(), "--unsorted group") {
		t.Errorf("late break: error %v", err)
	}
}
