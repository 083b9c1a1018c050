-- Every password reset, address confirmation and e-mail sign-up link made
-- before this version stops working. With mail on and BASE_URL unset, such
-- a link took its origin from the request's Host header, so its token may
-- sit in a link on an attacker's host (whoever follows it sets the password,
-- or confirms an address they do not own). Nothing tells those links from
-- good ones, so all go; whoever still needs one asks again. The operator's
-- resets (`speedmatrix account reset`) go too: the same table. A GitHub
-- sign-up waiting for its handle was never mailed (its secret is a cookie
-- of its browser) and stays.
DELETE FROM password_resets;
DELETE FROM email_confirmations;
DELETE FROM pending_signups WHERE provider = '';
