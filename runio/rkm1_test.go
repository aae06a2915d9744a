package runio

import (
	"bytes"
	"encoding/binary"
	"testing"
	"time"
)

// rkm1Header is the 12-byte header of an RKM1 file of q lists of l items.
func rkm1Header(q, l uint32) []byte {
	var b bytes.Buffer
	b.WriteString(RKM1Magic)
	binary.Write(&b, binary.LittleEndian, q)
	binary.Write(&b, binary.LittleEndian, l)
	return b.Bytes()
}

// The sizes in the messages are 12+5*Q*L, computed with Python integers.
// Headers whose counts disagree with the file size fail at once, before any
// allocation: a header claiming 2^32-1 lists of no items used to loop for
// minutes, one claiming lists of 2^32-1 items reserved 20 GB.
func TestRKM1HeaderChecks(t *testing.T) {
	const max32 = 1<<32 - 1
	tests := []struct {
		name string
		data []byte
		want string // "" for a valid file
	}{
		{"many empty lists", rkm1Header(max32, 0), `h.bin: field L: value "0": Q=4294967295 lists of no items (a list needs at least one item)`},
		{"one empty list", rkm1Header(1, 0), `h.bin: field L: value "0": Q=1 lists of no items (a list needs at least one item)`},
		{"huge lists, no data", rkm1Header(0, max32), ""},
		{"huge lists", rkm1Header(1, max32), `h.bin: field size: value "12": an RKM1 file with Q=1 L=4294967295 has 21474836487 bytes`},
		{"both huge", rkm1Header(max32, max32), `h.bin: field size: value "12": an RKM1 file with Q=4294967295 L=4294967295 has 92233720325598085137 bytes`},
		{"one byte short", append(rkm1Header(1, 1), 0, 0, 0, 0), `h.bin: field size: value "16": an RKM1 file with Q=1 L=1 has 17 bytes`},
		{"one byte over", append(rkm1Header(1, 1), 0, 0, 0, 0, 0, 0), `h.bin: field size: value "18": an RKM1 file with Q=1 L=1 has 17 bytes`},
		{"no lists", rkm1Header(0, 0), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got, err := readAllOrErr(NewRKM1Reader(bg, bytes.NewReader(tc.data), int64(len(tc.data)), "h.bin"))
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if tc.want == "" {
				if err != nil || len(got) != 0 {
					t.Fatalf("%d queries, error %v; want none and no error", len(got), err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v\nwant %s", err, tc.want)
			}
		})
	}
}
