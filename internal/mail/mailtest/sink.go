// Package mailtest is a small SMTP server for tests: it accepts every
// message (with AUTH PLAIN when asked for one) and hands each to the test.
package mailtest

import (
	"bufio"
	"encoding/base64"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"
)

// Message is one message the sink received.
type Message struct {
	From, To string
	// User is who authenticated ("" when nobody did).
	User string
	// Subject is decoded; Body is the decoded text.
	Subject, Body string
}

// Sink is an SMTP server on 127.0.0.1 that keeps what it is sent.
type Sink struct {
	ln       net.Listener
	user     string
	password string
	wg       sync.WaitGroup
	// Messages receives each message as its DATA ends.
	Messages chan Message
}

// New starts a sink that takes AUTH PLAIN with user and password (any
// other is refused); it stops when the test ends.
func New(t testing.TB, user, password string) *Sink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Sink{ln: ln, user: user, password: password, Messages: make(chan Message, 16)}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(func() { _ = ln.Close(); s.wg.Wait() })
	return s
}

// URL is the smtp:// URL of the sink with its user and password.
func (s *Sink) URL() string {
	return "smtp://" + s.user + ":" + s.password + "@" + s.ln.Addr().String()
}

// Next waits for the next message, failing the test after a while.
func (s *Sink) Next(t testing.TB) Message {
	t.Helper()
	select {
	case m := <-s.Messages:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no mail arrived")
		return Message{}
	}
}

func (s *Sink) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() { defer s.wg.Done(); s.session(c) }()
	}
}

// session speaks just enough SMTP for net/smtp.
func (s *Sink) session(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(c)
	say := func(line string) { _, _ = io.WriteString(c, line+"\r\n") }
	say("220 sink ESMTP")
	var m Message
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch verb {
		case "EHLO", "HELO":
			say("250-sink")
			say("250 AUTH PLAIN")
		case "AUTH":
			m.User = s.auth(line)
			if m.User == "" {
				say("535 no")
				continue
			}
			say("235 ok")
		case "MAIL":
			m.From = addrOf(line)
			say("250 ok")
		case "RCPT":
			m.To = addrOf(line)
			say("250 ok")
		case "DATA":
			say("354 go on")
			if !s.data(r, m) {
				return
			}
			say("250 kept")
			m = Message{User: m.User}
		case "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}

// auth checks "AUTH PLAIN base64(\0user\0pass)" and returns the user.
func (s *Sink) auth(line string) string {
	f := strings.Fields(line)
	if len(f) != 3 || !strings.EqualFold(f[1], "PLAIN") {
		return ""
	}
	raw, err := base64.StdEncoding.DecodeString(f[2])
	parts := strings.Split(string(raw), "\x00")
	if err != nil || len(parts) != 3 || parts[1] != s.user || parts[2] != s.password {
		return ""
	}
	return parts[1]
}

func addrOf(line string) string {
	_, a, _ := strings.Cut(line, "<")
	a, _, _ = strings.Cut(a, ">")
	return a
}

// data reads the message up to the lone dot and sends it on.
func (s *Sink) data(r *bufio.Reader, m Message) bool {
	var b strings.Builder
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return false
		}
		if line == ".\r\n" {
			break
		}
		b.WriteString(strings.TrimPrefix(line, "."))
	}
	msg, err := mail.ReadMessage(strings.NewReader(b.String()))
	if err != nil {
		return false
	}
	m.Subject, _ = new(mimeDecoder).decode(msg.Header.Get("Subject"))
	body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
	m.Body = strings.ReplaceAll(string(body), "\r\n", "\n")
	s.Messages <- m
	return true
}

type mimeDecoder struct{ mime.WordDecoder }

func (d *mimeDecoder) decode(s string) (string, error) { return d.DecodeHeader(s) }
