package main

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
)

// post sends doc with fields as a multipart upload and returns "201" or
// what came back instead.
func post(base string, doc []byte, fields map[string]string) string {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	part, _ := w.CreateFormFile("file", "benchmark_results.json")
	part.Write(doc)
	w.Close()
	resp, err := http.Post(base+"/api/v1/runs", w.FormDataContentType(), &body)
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
