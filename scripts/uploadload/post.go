package main

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
)

// post sends doc with fields as a multipart upload, with token as its
// bearer token unless empty, and returns "201" or what came back instead.
func post(base, token string, doc []byte, fields map[string]string) string {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	part, _ := w.CreateFormFile("file", "benchmark_results.json")
	part.Write(doc)
	w.Close()
	req, err := http.NewRequest(http.MethodPost, base+"/api/v1/runs", &body)
	if err != nil {
		return "error: " + err.Error()
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
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
