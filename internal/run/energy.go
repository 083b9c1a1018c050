package run

// DefaultKWhPrice is the electricity price per kWh the pages assume until
// the reader sets one: a plain number, in no currency.
const DefaultKWhPrice = 0.30

// TokensPerJoule is tokens per second ÷ watts: nil unless both are known
// and positive. It is the one place the ratio is taken.
func TokensPerJoule(tps, watts *float64) *float64 {
	if tps == nil || watts == nil || *tps <= 0 || *watts <= 0 {
		return nil
	}
	v := *tps / *watts
	return &v
}

// WhPerMTok is the watt-hours a million tokens take at tokens per joule
// tpj: 10⁶ ÷ tpj joules, ÷ 3,600 to watt-hours.
func WhPerMTok(tpj *float64) *float64 {
	if tpj == nil || *tpj <= 0 {
		return nil
	}
	v := 1e6 / *tpj / 3600
	return &v
}

// CostPerMTok is what a million tokens cost at price per kWh, from their
// watt-hours; nil when either is unknown or the price is negative.
func CostPerMTok(whPerMTok *float64, pricePerKWh float64) *float64 {
	if whPerMTok == nil || pricePerKWh < 0 {
		return nil
	}
	v := *whPerMTok / 1000 * pricePerKWh
	return &v
}

// TokensPerJoule is the cell's total tokens per second ÷ its average board
// power.
func (c *DecodeCell) TokensPerJoule() *float64 { return TokensPerJoule(c.TotalTPS, c.PowerW) }

// TokensPerJoule is the row's prompt tokens per second ÷ its average board
// power.
func (r *PrefillRow) TokensPerJoule() *float64 { return TokensPerJoule(r.PromptTPS, r.PowerW) }
