package recall

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestDbgSelect prints the ranking internals for DBG_DB/DBG_CWD/DBG_PROMPT.
func TestDbgSelect(t *testing.T) {
	path := os.Getenv("DBG_DB")
	if path == "" {
		t.Skip()
	}
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	prompt := os.Getenv("DBG_PROMPT")
	req := Request{Project: project.Identify(os.Getenv("DBG_CWD")), Prompt: prompt, Now: time.Now()}
	cs := concepts(prompt)
	cs, _ = weigh(ctx, db, cs, oursRE.MatchString(prompt))
	for _, c := range cs {
		fmt.Printf("concept %v df=%d w=%.3f\n", c.forms, c.df, c.weight)
	}
	match := store.MatchAny(searchForms(cs), true)
	asked := claim.Asks(prompt)
	fmt.Println("asked", asked)
	msgs, _ := messageItems(ctx, db, req, cs, match, asked)
	best := 1.0
	if len(msgs) > 0 {
		best = msgs[0].Score
	}
	ents, _ := entryItems(ctx, db, req, cs, match, asked, best)
	roles, _ := roleItems(ctx, db, req, cs, asked, best)
	show := func(name string, its []Item) {
		for i, it := range its {
			if i >= 8 {
				break
			}
			ex := it.Excerpt
			if ex == "" {
				ex = it.Text
			}
			if len(ex) > 160 {
				ex = ex[:160]
			}
			fmt.Printf("%s %s score=%.3f cov=%.2f rel=%.2f %q\n", name, it.CID, it.Score, it.Coverage, it.Relevance, ex)
		}
	}
	show("MSG", msgs)
	show("ENT", ents)
	show("ROLE", roles)
	items, err := Select(ctx, db, config.Default("").Recall, req)
	fmt.Println("SELECT", len(items), err)
	show("OUT", items)
}

func TestDbgWarn(t *testing.T) {
	path := os.Getenv("DBG_DB")
	if path == "" {
		t.Skip()
	}
	ctx := context.Background()
	db, _ := store.Open(ctx, path, store.Options{})
	defer db.Close()
	req := Request{Project: project.Identify(os.Getenv("DBG_CWD")), Prompt: os.Getenv("DBG_PROMPT"), Now: time.Now(), SessionID: os.Getenv("DBG_SID")}
	sel, err := Select(ctx, db, config.Default("").Recall, req)
	fmt.Println(len(sel), err)
	ws, err := Warnings(ctx, db, config.Default("").Recall, sel)
	fmt.Printf("%d %v\n", len(ws), err)
	for _, w := range ws {
		fmt.Printf("%+v\n", w)
	}
}
