package recall

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// skeleton folds s to what a reader takes it for, so that markerRE finds a
// marker however it is spelled: invisible characters (zero-width spaces
// and joiners, soft hyphens, variation selectors) are dropped, fullwidth
// and small forms become ASCII, and Cyrillic and Greek letters that look
// like Latin ones become those. at[i] is the byte offset in s of the rune
// that gave skeleton byte i, and at[len] is len(s).
func skeleton(s string) (string, []int) {
	b := make([]byte, 0, len(s))
	at := make([]int, 0, len(s)+1)
	for i, r := range s {
		switch {
		case invisible(r):
			continue
		case r >= 0xFF01 && r <= 0xFF5E: // fullwidth ASCII
			r -= 0xFEE0
		case r == 0xFE64:
			r = '<'
		case r == 0xFE65:
			r = '>'
		case r == 0x00A0 || r == 0x3000 || r >= 0x2000 && r <= 0x200A || r == 0x202F || r == 0x205F:
			r = ' '
		default:
			if l, ok := latinLookalike()[r]; ok {
				r = l
			}
		}
		n := len(b)
		b = utf8.AppendRune(b, r)
		for range len(b) - n {
			at = append(at, i)
		}
	}
	at = append(at, len(s))
	return string(b), at
}

// invisible reports whether r is drawn as nothing, joiners and variation
// selectors included: what a marker may be spelled with (skeleton). Output
// drops fewer (Hidden).
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || r == 0x034F || r >= 0xFE00 && r <= 0xFE0F || r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0
}

// latinLookalike maps Cyrillic and Greek letters to the Latin letters they
// are drawn like. The table is built at its first use, not at start (as
// lazywords.Set builds its sets).
var latinLookalike = sync.OnceValue(func() map[rune]rune {
	return map[rune]rune{
		'А': 'A', 'В': 'B', 'С': 'C', 'Е': 'E', 'Н': 'H', 'І': 'I', 'Ј': 'J', 'К': 'K', 'М': 'M', 'О': 'O', 'Р': 'P',
		'Ѕ': 'S', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'Ԁ': 'D', 'Ԛ': 'Q', 'Ԝ': 'W',
		'а': 'a', 'с': 'c', 'е': 'e', 'і': 'i', 'ј': 'j', 'о': 'o', 'р': 'p', 'ѕ': 's', 'х': 'x', 'у': 'y',
		'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l', 'ɡ': 'g',
		'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
		'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v', 'κ': 'k', 'ι': 'i',
	}
})
