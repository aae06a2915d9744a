package trecfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// QrelsScanner's groups, gathered by qid, are ParseQrels' topics; its
// count of judgements above 0 is ParseQrels'; its errors are IndexQrels'.
func TestQrelsScannerGroups(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "treceval")
	names, _ := filepath.Glob(filepath.Join(dir, "*.qrels"))
	hostile, _ := filepath.Glob(filepath.Join(dir, "hostile", "q*"))
	names = append(names, hostile...)
	if len(names) < 10 {
		t.Fatalf("only %d qrels files", len(names))
	}
	checked := 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []treceval.Version{treceval.V10, treceval.V908} {
			want, werr := ParseQrels(name, data, v)
			_, ierr := IndexQrels(context.Background(), bytes.NewReader(data), name, v)
			s := NewQrelsScanner(bytes.NewReader(data), name, v)
			got := map[string][]treceval.Judgment{}
			var gerr error
			for {
				qid, judged, err := s.Next(context.Background())
				if err == io.EOF {
					break
				}
				if err != nil {
					gerr = err
					break
				}
				for _, j := range judged {
					got[qid] = append(got[qid], treceval.Judgment{Docno: strings.Clone(j.Docno), Rel: j.Rel})
				}
			}
			if gerr != nil || ierr != nil && !errors.Is(ierr, ErrScatteredQrels) {
				if gerr == nil || ierr == nil || gerr.Error() != ierr.Error() {
					t.Errorf("%s %s: QrelsScanner error %v, IndexQrels error %v", name, v, gerr, ierr)
				}
				continue
			}
			if werr != nil {
				if len(data) > 0 && len(got) > 0 {
					t.Errorf("%s %s: ParseQrels error %v, QrelsScanner none", name, v, werr)
				}
				continue
			}
			checked++
			if len(got) != len(want.Topics) {
				t.Errorf("%s %s: %d topics, ParseQrels %d", name, v, len(got), len(want.Topics))
			}
			for _, tp := range want.Topics {
				if !slices.Equal(got[tp.Qid], tp.Judged) {
					t.Errorf("%s %s: topic %s: %v, ParseQrels %v", name, v, tp.Qid, got[tp.Qid], tp.Judged)
				}
			}
			if s.RelAbove0() != want.RelAbove0() {
				t.Errorf("%s %s: %d judgements above 0, ParseQrels %d", name, v, s.RelAbove0(), want.RelAbove0())
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d files read without error", checked)
	}
}
