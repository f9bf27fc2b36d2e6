package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/claude-memory-layer/claude-memory-layer/internal/jsondepth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

// maxMessage bounds one message from the client; a longer line is
// answered with an error and skipped.
const maxMessage = 16 << 20

// Stdio is the transport over the client's newline-delimited JSON-RPC
// stream. The SDK's own stops serving at the first message it cannot
// decode (invalid JSON, a batch, nesting past what encoding/json takes);
// here such a message is answered with a JSON-RPC error and skipped, and
// the server goes on.
func Stdio(in io.Reader, out io.Writer) mcp.Transport {
	w := &lineWriter{w: out}
	return &mcp.IOTransport{Reader: io.NopCloser(&guard{r: bufio.NewReaderSize(in, 64<<10), w: w}), Writer: w}
}

// guard passes on the client's messages that the SDK can take, one line
// at a time, and answers the others itself.
type guard struct {
	r       *bufio.Reader
	w       *lineWriter
	pending []byte
}

func (g *guard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, err := g.line()
		if len(line) > 0 {
			if reject, code, msg := check(line); reject {
				var id gjson.Result // null: the id of what does not parse is not known
				if code != parseError {
					id = gjson.GetBytes(line, "id")
				}
				if code == parseError || !response(gjson.ParseBytes(line)) { // a response is never answered (JSON-RPC 2.0)
					g.w.reply(id, code, msg)
				}
			} else {
				g.pending = append(line, '\n')
			}
		}
		if err != nil && len(g.pending) == 0 {
			return 0, err
		}
		if err != nil {
			break
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// line reads the next line without its newline, trimmed; one longer than
// maxMessage is read to its end and dropped, and comes back as a marker
// check refuses.
func (g *guard) line() ([]byte, error) {
	var buf []byte
	over := false
	for {
		chunk, err := g.r.ReadSlice('\n')
		if !over && len(buf)+len(chunk) > maxMessage {
			over, buf = true, nil
		}
		if !over {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if over {
			return tooLong, err
		}
		return bytes.TrimSpace(buf), err
	}
}

// tooLong stands for a line past maxMessage; never written to.
var tooLong = []byte("\x00too long")

// JSON-RPC error codes.
const (
	parseError     = -32700
	invalidRequest = -32600
)

// check says whether the SDK must not see line, and the error to answer.
func check(line []byte) (reject bool, code int, msg string) {
	switch {
	case bytes.Equal(line, tooLong):
		return true, invalidRequest, "message too large"
	case !jsondepth.Within(line, jsondepth.Max):
		return true, parseError, "JSON nested too deep"
	case !json.Valid(line):
		return true, parseError, "parse error: not JSON"
	case line[0] == '[':
		return true, invalidRequest, "batches are not supported: send one message per line"
	case line[0] != '{':
		return true, invalidRequest, "a message must be a JSON-RPC object"
	}
	m := gjson.ParseBytes(line)
	if m.Get("jsonrpc").String() != "2.0" {
		return true, invalidRequest, `jsonrpc must be "2.0"`
	}
	if id := m.Get("id"); id.Exists() && id.Type != gjson.String && id.Type != gjson.Number {
		return true, invalidRequest, "id must be a string or a number"
	}
	method := m.Get("method")
	if method.Type != gjson.String && !response(m) {
		return true, invalidRequest, "a request needs a method"
	}
	// What passed so far the SDK may still fail to decode, which ends the
	// connection: a duplicate key (gjson reads the first, the SDK the last),
	// an id past float64, an error of the wrong shape, nesting past the
	// SDK's own limit. Its own decoder has the last word.
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return true, invalidRequest, err.Error()
	}
	return false, 0, ""
}

// response reports a JSON-RPC object that answers a request: an id with a
// result or an error, and no method.
func response(m gjson.Result) bool {
	return m.Get("id").Exists() && !m.Get("method").Exists() && (m.Get("result").Exists() || m.Get("error").Exists())
}

// lineWriter writes whole lines to w, one at a time, so that an error the
// guard answers never lands inside a message the SDK writes.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		_, err := l.w.Write(l.buf[:i+1])
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
		if err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (l *lineWriter) Close() error { return nil }

// reply writes a JSON-RPC error for the request id (null when it had none
// or an unusable one).
func (l *lineWriter) reply(id gjson.Result, code int, msg string) {
	var rid any
	switch id.Type {
	case gjson.String:
		rid = id.String()
	case gjson.Number:
		rid = json.Number(id.Raw)
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rid, "error": map[string]any{"code": code, "message": msg}})
	l.Write(append(b, '\n'))
}
