package main

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"sort"
)

// body is one upload's request, built before the clock starts so the API's
// rate, like the baseline's, counts none of the load's own preparation.
type body struct {
	data  []byte
	ctype string
}

// newBody builds the multipart form of doc with fields, in a fixed field
// order.
func newBody(doc []byte, fields map[string]string) body {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w.WriteField(k, fields[k])
	}
	part, _ := w.CreateFormFile("file", "benchmark_results.json")
	part.Write(doc)
	w.Close()
	return body{data: buf.Bytes(), ctype: w.FormDataContentType()}
}

// post sends b, with token as its bearer token unless empty, and returns
// "201" or what came back instead.
func post(client *http.Client, base, token string, b body) string {
	req, err := http.NewRequest(http.MethodPost, base+"/api/v1/runs", bytes.NewReader(b.data))
	if err != nil {
		return "error: " + err.Error()
	}
	req.Header.Set("Content-Type", b.ctype)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	if resp.StatusCode != http.StatusCreated {
		return fmt.Sprintf("%d %s", resp.StatusCode, bytes.TrimSpace(msg))
	}
	return "201"
}
