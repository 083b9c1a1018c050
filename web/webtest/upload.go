package webtest

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"testing"
)

// MultipartBody is a multipart form of fields and, when file is not nil,
// the file under filename, as the upload form sends it; it returns the
// body and its content type.
func MultipartBody(t testing.TB, file []byte, filename string, fields map[string]string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if file != nil {
		fw, _ := mw.CreateFormFile("file", filename)
		_, _ = fw.Write(file)
	}
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// UniqueDoc is the sample with its timestamp's fraction set to i, a new
// document for the dedupe key.
func UniqueDoc(t *testing.T, body []byte, i int) []byte {
	t.Helper()
	const stamp = `"timestamp": "2026-10-07T14:37:51.`
	at := bytes.Index(body, []byte(stamp)) + len(stamp)
	doc := bytes.Clone(body)
	copy(doc[at:at+6], fmt.Sprintf("%06d", 900000+i))
	return doc
}

// SweepModel, SweepPrompts and SweepConcs make the vLLM sweep the upload
// tests send (formatstest.VLLMSweep); SweepCtx is the context each prompt
// length is measured at.
const SweepModel = "meta-llama/Llama-3.1-8B-Instruct"

var (
	SweepPrompts = []int{1000, 4000, 16000}
	SweepConcs   = []int{1, 2, 4, 8}
	SweepCtx     = map[int]int{1000: 1024, 4000: 4096, 16000: 16384}
)
