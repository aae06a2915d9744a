package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// namesHelp is what -h says of names in the table and TSV formats.
const namesHelp = `In the table and TSV formats, a name (qid, file, run, measure) that holds a
tab, a line break, another control or invisible character or invalid UTF-8,
or that starts with a double quote, is written as a double-quoted Go string
("a\tb", "\xff"), so that it stays one field; JSON escapes it as JSON
does.`

// textCell returns s as one inert field of a tab-separated line or a plain
// text table: s itself when every rune of it is printable (strconv.IsPrint:
// letters, marks, numbers, punctuation, symbols and the ASCII space) and it
// does not start with a double quote; otherwise s as a double-quoted Go
// string literal, with backslash escapes (\t, \n, \x01, \xff for a byte of
// invalid UTF-8, \u202e), so that a name holds no tab, line break, terminal
// control or invisible character, and a quoted field is never taken for a
// name.
func textCell(s string) string {
	if needsQuote(s) {
		return strconv.Quote(s)
	}
	return s
}

// needsQuote reports whether textCell quotes s.
func needsQuote(s string) bool {
	if strings.HasPrefix(s, `"`) {
		return true
	}
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") || !strconv.IsPrint(r) {
			return true
		}
	}
	return false
}

// visibleRunes calls lit for each printable rune of s (at byte i) and esc with the
// backslash escape of every other rune (n for a line feed, x01, u202e, xff
// for a byte of invalid UTF-8), without its backslash.
func visibleRunes(s string, lit func(i int, r rune), esc func(e string)) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			esc(fmt.Sprintf("x%02x", s[i]))
		case strconv.IsPrint(r):
			lit(i, r)
		default:
			q := strconv.QuoteRune(r) // '\n', '\x01', '\u202e'
			esc(q[2 : len(q)-1])
		}
	}
}

// markdownText returns s as inert text of a Markdown table cell: the
// characters of Markdown and HTML markup (\ | * _ ` [ ] < > & ~ ! $ #) are
// backslash-escaped, but for a _ between two letters or digits, which
// never marks emphasis (ndcg_cut_10 stays as it is), and every rune that is not printable is shown as its
// escape, \n, \x01, \u202e, \xff (written \\n..., so that it renders as a
// backslash and the letters).
func markdownText(s string) string {
	var b strings.Builder
	visibleRunes(s, func(i int, r rune) {
		if r < utf8.RuneSelf && strings.ContainsRune(markdownSpecials, r) && !(r == '_' && intraword(s, i)) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}, func(e string) {
		b.WriteString(`\\`)
		b.WriteString(e)
	})
	return b.String()
}

// intraword reports whether the byte s[i] is between two letters or
// digits.
func intraword(s string, i int) bool {
	alnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	next, _ := utf8.DecodeRuneInString(s[i+1:])
	return alnum(prev) && alnum(next)
}

// markdownSpecials are the characters markdownText escapes.
const markdownSpecials = "\\|*_`[]<>&~!$#"

// latexSpecials are LaTeX's ten special characters and what latexText
// writes for them.
var latexSpecials = map[rune]string{
	'\\': `\textbackslash{}`, '{': `\{`, '}': `\}`, '$': `\$`, '&': `\&`,
	'#': `\#`, '^': `\textasciicircum{}`, '_': `\_`, '~': `\textasciitilde{}`, '%': `\%`,
}

// latexText returns s as inert LaTeX text, in a table cell as in a comment
// line: LaTeX's ten special characters (\ { } $ & # ^ _ ~ %) are escaped,
// and every rune that is not printable is shown as its escape, \n, \x01,
// \u202e, \xff (written \textbackslash{}n...), so that s holds no line
// break and no command.
func latexText(s string) string {
	var b strings.Builder
	visibleRunes(s, func(_ int, r rune) {
		if e, ok := latexSpecials[r]; ok {
			b.WriteString(e)
			return
		}
		b.WriteRune(r)
	}, func(e string) {
		b.WriteString(`\textbackslash{}`)
		b.WriteString(e)
	})
	return b.String()
}
