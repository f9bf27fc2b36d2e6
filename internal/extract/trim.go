package extract

// byteSet is a set of ASCII bytes to trim from words. strings.Trim builds
// its set from the cutset on every call, and the rules that trim each word
// of a text (paths, prose, identifier, …) called it for every word: building
// the sets was 4 % of the extractor's samples on the bench session. These
// are laid out by the compiler.
type byteSet [256]bool

// trim is strings.Trim(s, cutset) for the set's cutset.
func (b *byteSet) trim(s string) string { return b.trimRight(b.trimLeft(s)) }

// trimLeft is strings.TrimLeft(s, cutset) for the set's cutset.
func (b *byteSet) trimLeft(s string) string {
	i := 0
	for i < len(s) && b[s[i]] {
		i++
	}
	return s[i:]
}

// trimRight is strings.TrimRight(s, cutset) for the set's cutset.
func (b *byteSet) trimRight(s string) string {
	j := len(s)
	for j > 0 && b[s[j-1]] {
		j--
	}
	return s[:j]
}

// The cutsets of the word trims.
var (
	pathTrim       = byteSet{'`': true, '\'': true, '"': true, '(': true, ')': true, ',': true, ';': true, ':': true, '!': true, '?': true}                                  // "`'\"(),;:!?"
	addressTrim    = byteSet{'(': true, ')': true, '[': true, ']': true, '<': true, '>': true, ',': true, ';': true, '`': true, '\'': true, '"': true}                       // "()[]<>,;`'\""
	addressEndTrim = byteSet{'.': true, ':': true, '!': true, '?': true}                                                                                                     // ".:!?"
	proseTrim      = byteSet{'.': true, ',': true, ';': true, ':': true, '!': true, '?': true, '(': true, ')': true, '"': true, '\'': true, '`': true, '*': true}            // ".,;:!?()\"'`*"
	nameTrim       = byteSet{'.': true, ',': true, ';': true, ':': true, '(': true, ')': true, '[': true, ']': true, '"': true, '\'': true, '*': true, '!': true, '?': true} // ".,;:()[]\"'*!?"
	conversedTrim  = byteSet{',': true, ';': true, ':': true, '(': true, ')': true, '"': true, '\'': true}                                                                   // ",;:()\"'"
	contentTrim    = byteSet{'.': true, '-': true, '/': true, '\'': true}                                                                                                    // ".-/'"
	colourTrim     = byteSet{'.': true, ',': true, ';': true, ':': true, '(': true, ')': true, '[': true, ']': true, '"': true, '\'': true, '*': true}                       // ".,;:()[]\"'*"
	errorWordTrim  = byteSet{':': true, '.': true, ';': true}                                                                                                                // ":.;"
	valueWordTrim  = byteSet{':': true, ',': true, ';': true, '.': true, '!': true, '?': true}                                                                               // ":,;.!?"
)
