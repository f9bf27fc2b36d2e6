package dashboard

import (
	"fmt"
	"html"
	"html/template"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Charts are drawn here as inline SVG, so that the page needs no script
// and no library, and reads the same in any browser.

// maxBins is how many bars a chart has at most: days are grouped into
// weeks or longer when the history is longer.
const maxBins = 60

type bin struct {
	label  string
	values []int
}

// bins groups days into at most maxBins consecutive periods from the first
// day to the last, each summing pick's values.
func bins(days []store.Day, pick func(store.Day) []int) []bin {
	if len(days) == 0 {
		return nil
	}
	first, err1 := time.Parse("2006-01-02", days[0].Date)
	last, err2 := time.Parse("2006-01-02", days[len(days)-1].Date)
	if err1 != nil || err2 != nil {
		return nil
	}
	span := int(last.Sub(first).Hours()/24) + 1
	width := (span + maxBins - 1) / maxBins
	n := (span + width - 1) / width
	out := make([]bin, n)
	for i := range out {
		out[i].label = first.AddDate(0, 0, i*width).Format("2006-01-02")
	}
	for _, d := range days {
		t, err := time.Parse("2006-01-02", d.Date)
		if err != nil {
			continue
		}
		i := int(t.Sub(first).Hours()/24) / width
		if i < 0 || i >= n {
			continue
		}
		vs := pick(d)
		if out[i].values == nil {
			out[i].values = make([]int, len(vs))
		}
		for k, v := range vs {
			out[i].values[k] += v
		}
	}
	return out
}

type series struct {
	name, class string
}

// barChart draws grouped bars, one group per bin, one bar per series.
func barChart(title string, bs []bin, ss []series) template.HTML {
	if len(bs) == 0 {
		return template.HTML(`<p class="empty">Nothing recorded yet.</p>`)
	}
	const w, h, left, bottom, top = 600.0, 180.0, 36.0, 22.0, 8.0
	peak := 1
	for _, b := range bs {
		for _, v := range b.values {
			peak = max(peak, v)
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg class="chart" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`, w, h, html.EscapeString(title))
	fmt.Fprintf(&sb, `<title>%s</title>`, html.EscapeString(title))
	plotH := h - bottom - top
	for _, f := range []float64{0, 0.5, 1} {
		y := top + plotH*(1-f)
		fmt.Fprintf(&sb, `<line class="grid" x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f"/>`, left, w, y, y)
		fmt.Fprintf(&sb, `<text class="axis" x="%.0f" y="%.1f" text-anchor="end">%d</text>`, left-4, y+4, int(float64(peak)*f+0.5))
	}
	slot := (w - left) / float64(len(bs))
	bar := slot * 0.8 / float64(len(ss))
	for i, b := range bs {
		x0 := left + slot*float64(i) + slot*0.1
		for k, s := range ss {
			v := 0
			if k < len(b.values) {
				v = b.values[k]
			}
			bh := plotH * float64(v) / float64(peak)
			fmt.Fprintf(&sb, `<rect class="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s %s: %d</title></rect>`,
				s.class, x0+bar*float64(k), top+plotH-bh, max(bar-1, 1), bh, html.EscapeString(b.label), html.EscapeString(s.name), v)
		}
	}
	for _, i := range []int{0, len(bs) / 2, len(bs) - 1} {
		anchor := map[bool]string{true: "start", false: "middle"}[i == 0]
		if i == len(bs)-1 && i != 0 {
			anchor = "end"
		}
		x := left + slot*float64(i) + slot/2
		if i == 0 {
			x = left
		} else if i == len(bs)-1 {
			x = w
		}
		fmt.Fprintf(&sb, `<text class="axis" x="%.1f" y="%.0f" text-anchor="%s">%s</text>`, x, h-6, anchor, html.EscapeString(bs[i].label))
	}
	sb.WriteString(`</svg>`)
	if len(ss) > 1 {
		sb.WriteString(`<p class="legend">`)
		for _, s := range ss {
			fmt.Fprintf(&sb, `<span class="key %s"></span>%s `, s.class, html.EscapeString(s.name))
		}
		sb.WriteString(`</p>`)
	}
	return template.HTML(sb.String()) // built above from numbers and escaped text only
}

func memoriesChart(days []store.Day) template.HTML {
	var made []store.Day
	for _, d := range days {
		if d.Memories > 0 {
			made = append(made, d)
		}
	}
	return barChart("Memories created", bins(made, func(d store.Day) []int { return []int{d.Memories} }),
		[]series{{"memories", "s1"}})
}

func usageChart(days []store.Day) template.HTML {
	var used []store.Day
	for _, d := range days {
		if d.Injected+d.Used > 0 {
			used = append(used, d)
		}
	}
	return barChart("Memories injected into prompts and cited by answers", bins(used, func(d store.Day) []int { return []int{d.Injected, d.Used} }),
		[]series{{"injected", "s2"}, {"used", "s3"}})
}
