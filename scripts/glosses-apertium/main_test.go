package main

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// att is a transducer as lt-print writes one: arcs "from to in out weight",
// final states "state weight", sections apart by "--". Its first section
// shares a prefix between two lemmas (des-plegar, des-pliegue), has a
// lemma of two words, a name, a number's loop and a lemma two paths give
// (as a noun and as an adjective); the second, a capital's loop.
const att = "0\t1\td\td\t0.000000\t\n" +
	"1\t2\te\te\t0.000000\t\n" +
	"2\t3\ts\tε\t0.000000\t\n" +
	// desplegar<vblex> : deploy<vblex>
	"3\t4\tp\tp\t0.000000\t\n" +
	"4\t5\tl\tl\t0.000000\t\n" +
	"5\t6\te\to\t0.000000\t\n" +
	"6\t7\tg\ty\t0.000000\t\n" +
	"7\t8\ta\tε\t0.000000\t\n" +
	"8\t9\tr\tε\t0.000000\t\n" +
	"9\t99\t<vblex>\t<vblex>\t0.000000\t\n" +
	// despliegue<n><m> : deployment<n>, and as an adjective : deplOYED<adj>
	"5\t20\ti\tε\t0.000000\t\n" +
	"20\t21\te\tε\t0.000000\t\n" +
	"21\t22\tg\tε\t0.000000\t\n" +
	"22\t23\tu\tε\t0.000000\t\n" +
	"23\t24\te\toyment\t0.000000\t\n" +
	"24\t25\t<n>\t<n>\t0.000000\t\n" +
	"25\t99\t<m>\tε\t0.000000\t\n" +
	"23\t26\te\tOYED\t0.000000\t\n" +
	"26\t99\t<adj>\t<adj>\t0.000000\t\n" +
	// rayo x<n> : X-ray<n>, two words to one with a hyphen
	"0\t30\tr\tX\t0.000000\t\n" +
	"30\t31\ta\t-\t0.000000\t\n" +
	"31\t32\ty\tr\t0.000000\t\n" +
	"32\t33\to\ta\t0.000000\t\n" +
	"33\t34\t \ty\t0.000000\t\n" +
	"34\t35\tx\tε\t0.000000\t\n" +
	"35\t99\t<n>\t<n>\t0.000000\t\n" +
	// Ma<np> : Ma<np>, a name with a capital
	"0\t40\tM\tM\t0.000000\t\n" +
	"40\t41\ta\ta\t0.000000\t\n" +
	"41\t99\t<np>\t<np>\t0.000000\t\n" +
	// sol<np> : Sol<np>, a name written in lower case
	"0\t50\ts\tS\t0.000000\t\n" +
	"50\t51\to\to\t0.000000\t\n" +
	"51\t52\tl\tl\t0.000000\t\n" +
	"52\t99\t<np>\t<np>\t0.000000\t\n" +
	// a number: digits looping on a state
	"0\t60\t1\t1\t0.000000\t\n" +
	"60\t60\t2\t2\t0.000000\t\n" +
	"60\t99\t<num>\t<num>\t0.000000\t\n" +
	"99\t0.000000\n" +
	"--\n" +
	// se<n> : server<n>, past a loop on a capital and one on a letter
	"0\t2\ts\tε\t0.000000\t\n" +
	"2\t2\tC\tC\t0.000000\t\n" +
	"2\t3\te\tε\t0.000000\t\n" +
	"3\t3\tr\tr\t0.000000\t\n" +
	"3\t4\t<n>\tserver\t0.000000\t\n" +
	"4\t0.000000\n"

func TestWalk(t *testing.T) {
	t.Parallel()
	got, err := walk(strings.NewReader(att))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"desplegar":  {"deploy"},
		"despliegue": {"deployment", "deployed"},
		// the second section's, each state once on a path
		"se": {"server"},
	}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("walk = %v\nwant %v", got, want)
	}
}

func TestMerge(t *testing.T) {
	t.Parallel()
	table := "# spa-eng glosses from FreeDict\nrama bough branch\nzapato shoe\n"
	pairs := map[string][]string{
		"rama":      {"offshoot", "branch", "limb"},
		"desplegar": {"unfold", "deploy", "spread"},
		"año":       {"year"},
		"ñandú":     {"rhea"},
	}
	got, err := merge(table, pairs, "# spa-eng glosses from FreeDict and Apertium")
	if err != nil {
		t.Fatal(err)
	}
	// FreeDict's words first; the added ones the commonest first; the rows
	// by byte ("ñandú" after "zapato").
	want := "# spa-eng glosses from FreeDict and Apertium\n" +
		"año year\n" +
		"desplegar spread deploy unfold\n" +
		"rama bough branch limb offshoot\n" +
		"zapato shoe\n" +
		"ñandú rhea\n"
	if got != want {
		t.Errorf("merge =\n%s\nwant\n%s", got, want)
	}
	if _, err := merge("rama bough\n", pairs, ""); err == nil {
		t.Error("a table without its header line merged")
	}
}
