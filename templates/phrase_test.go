package templates

import "testing"

func TestWordBreakHints(t *testing.T) {
	cases := map[string]string{
		"同時リクエスト数":       "同時<wbr>リクエスト<wbr>数",
		"リクエストあたり tok/s": "リクエスト<wbr>あたり tok/s",
		"リクエスト待ち":        "リクエスト<wbr>待ち", // 待ち stays whole
		"合計 tok/s":       "合計 tok/s",
		"KV キャッシュ容量":     "KV キャッシュ<wbr>容量",
		"并发请求数":          "并发请求数",
		"<b>":            "&lt;b&gt;",
	}
	for in, want := range cases {
		if got := wordBreakHints(in); got != want {
			t.Errorf("wordBreakHints(%q) = %q, want %q", in, got, want)
		}
	}
}
