package account

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ratelimit"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Mailer sends one plain-text message (internal/mail.Mailer).
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// mailTimeout bounds one background delivery.
const mailTimeout = time.Minute

// Mails a form may cause per hour: per address typed, few enough that
// nobody's inbox can be flooded through the site; per client, enough for
// a household behind one address.
const (
	mailsPerHourEmail  = 3
	mailsPerHourClient = 20
)

// mailLimits count the forms that send mail, in memory like the other
// limits.
type mailLimits struct{ byEmail, byClient *ratelimit.Limiter }

func newMailLimits(now func() time.Time) mailLimits {
	return mailLimits{byEmail: ratelimit.New(mailsPerHourEmail, now), byClient: ratelimit.New(mailsPerHourClient, now)}
}

// allowMail spends one mail of the client's and of the address's budget;
// spent, it answers Retry-After and false. Both are counted whether or not
// an account has the address, so the limit tells nothing either.
func (s *Handlers) allowMail(w http.ResponseWriter, r *http.Request, email string) bool {
	okClient, waitClient := s.mails.byClient.Allow(kit.ClientAddress(r, s.Uploads.TrustedProxies))
	okEmail, waitEmail := s.mails.byEmail.Allow(strings.ToLower(email))
	if okClient && okEmail {
		return true
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(max(waitClient, waitEmail)/time.Second)+1))
	return false
}

// later runs work after the answer has gone: the answer takes the same
// time, and says the same, whatever work finds. Its context keeps the
// request's values (the reader's language) but not its end.
func (s *Handlers) later(r *http.Request, what string, work func(ctx context.Context) error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), mailTimeout)
	go func() {
		defer cancel()
		if err := work(ctx); err != nil {
			// Neither the address nor any secret: what failed, and why.
			s.Log.Error("mail not sent", "what", what, "err", err)
		}
	}()
}

// sendMail mails the message key (key.subject, key.body with data) to to,
// in the language of ctx.
func (s *Handlers) sendMail(ctx context.Context, to, key string, data map[string]any) error {
	l := i18n.FromContext(ctx)
	return s.mailer.Send(ctx, to, l.T(key+".subject", data), l.T(key+".body", data))
}
