package claudememorylayer_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageDocs checks that every package has exactly one package comment,
// and that commands say what they are ("Command <name> ...").
func TestPackageDocs(t *testing.T) {
	docs := map[string][]string{} // dir -> files with a package comment
	pkgs := map[string]string{}   // dir -> package name
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		pkgs[dir] = f.Name.Name
		if f.Doc != nil {
			docs[dir] = append(docs[dir], path)
			text := f.Doc.Text()
			if f.Name.Name == "main" && !strings.HasPrefix(text, "Command "+filepath.Base(dir)) {
				t.Errorf("%s: a command's doc starts with %q", path, "Command "+filepath.Base(dir))
			}
			if f.Name.Name != "main" && !strings.HasPrefix(text, "Package "+f.Name.Name+" ") {
				t.Errorf("%s: package doc should start with %q", path, "Package "+f.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, name := range pkgs {
		switch n := len(docs[dir]); {
		case n == 0:
			t.Errorf("package %s (%s) has no package doc", name, dir)
		case n > 1:
			t.Errorf("package %s (%s) has package docs in %v", name, dir, docs[dir])
		}
	}
}
