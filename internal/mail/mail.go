// Package mail sends the site's few plain-text messages (password resets,
// address confirmations) through one SMTP server named by a URL, with the
// standard library's net/smtp: smtps:// speaks TLS from the first byte,
// smtp:// upgrades with STARTTLS whenever the server offers it. The
// password in the URL never appears in an error or a log line.
package mail

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"
)

// Mailer sends mail through one SMTP server.
type Mailer struct {
	u    *url.URL
	from mail.Address
	// tlsConfig is nil for the system's roots; tests trust their own.
	tlsConfig *tls.Config
}

// Parse reads an SMTP URL (smtp://user:pass@host:587 or smtps://…:465)
// and the sender's address. An error never quotes the password.
func Parse(rawURL, from string) (*Mailer, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, errors.New("not a URL") // the error would quote the password
	}
	if (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" || strings.TrimSuffix(u.Path, "/") != "" {
		return nil, fmt.Errorf("%s is not smtp://[user:pass@]host[:port] or smtps://…", u.Redacted())
	}
	addr, err := mail.ParseAddress(from)
	if err != nil || strings.ContainsAny(from, "\r\n") {
		return nil, fmt.Errorf("the sender %q is not an e-mail address", from)
	}
	return &Mailer{u: u, from: *addr}, nil
}

// WithTLSConfig is m trusting the roots of c (tests run their own server).
func (m *Mailer) WithTLSConfig(c *tls.Config) *Mailer {
	n := *m
	n.tlsConfig = c
	return &n
}

// String is the server's URL without its password, for logs.
func (m *Mailer) String() string { return m.u.Redacted() }

func (m *Mailer) hostPort() string {
	port := m.u.Port()
	if port == "" {
		port = map[string]string{"smtp": "587", "smtps": "465"}[m.u.Scheme]
	}
	return net.JoinHostPort(m.u.Hostname(), port)
}

func (m *Mailer) tls() *tls.Config {
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if m.tlsConfig != nil {
		c = m.tlsConfig.Clone()
	}
	c.ServerName = m.u.Hostname()
	return c
}

// Send mails one plain-text message to the address to, giving up with ctx.
func (m *Mailer) Send(ctx context.Context, to, subject, body string) error {
	rcpt, err := mail.ParseAddress(to)
	if err != nil || strings.ContainsAny(to, "\r\n") {
		return errors.New("mail: bad recipient")
	}
	msg, err := m.message(rcpt, subject, body)
	if err != nil {
		return err
	}
	if err := m.deliver(ctx, rcpt.Address, msg); err != nil {
		return fmt.Errorf("mail via %s: %w", m, err)
	}
	return nil
}

// deliver speaks SMTP: TLS or STARTTLS, AUTH when the URL has a user,
// then one message.
func (m *Mailer) deliver(ctx context.Context, rcpt string, msg []byte) error {
	d := &net.Dialer{Timeout: 20 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", m.hostPort())
	if err != nil {
		return err
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	if m.u.Scheme == "smtps" {
		conn = tls.Client(conn, m.tls())
	}
	c, err := smtp.NewClient(conn, m.u.Hostname())
	if err != nil {
		return err
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok && m.u.Scheme == "smtp" {
		if err := c.StartTLS(m.tls()); err != nil {
			return err
		}
	}
	if m.u.User != nil {
		pass, _ := m.u.User.Password()
		// PlainAuth refuses to send the password unencrypted except to
		// localhost.
		if err := c.Auth(smtp.PlainAuth("", m.u.User.Username(), pass, m.u.Hostname())); err != nil {
			return errors.New("authentication refused")
		}
	}
	if err := c.Mail(m.from.Address); err != nil {
		return err
	}
	if err := c.Rcpt(rcpt); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// message is the RFC 5322 text: UTF-8 subject and body, the body
// quoted-printable so long links and any language pass every relay.
func (m *Mailer) message(to *mail.Address, subject, body string) ([]byte, error) {
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	domain := m.from.Address[strings.LastIndex(m.from.Address, "@")+1:]
	var b strings.Builder
	for _, h := range [][2]string{
		{"From", m.from.String()},
		{"To", to.String()},
		{"Subject", mime.QEncoding.Encode("utf-8", subject)},
		{"Date", time.Now().UTC().Format(time.RFC1123Z)},
		{"Message-ID", "<" + hex.EncodeToString(id) + "@" + domain + ">"},
		{"MIME-Version", "1.0"},
		{"Content-Type", "text/plain; charset=utf-8"},
		{"Content-Transfer-Encoding", "quoted-printable"},
		{"Auto-Submitted", "auto-generated"},
	} {
		b.WriteString(h[0] + ": " + h[1] + "\r\n")
	}
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	if _, err := qp.Write([]byte(strings.ReplaceAll(body, "\n", "\r\n"))); err != nil {
		return nil, err
	}
	if err := qp.Close(); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}
