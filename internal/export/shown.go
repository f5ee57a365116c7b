package export

// shown is the one point the sheet's text from outside labtui passes through on its way
// to the markdown: what the recordings and topics name (tenants, requests, gateways) as
// the evidence's sentences quote them. It returns s as it is; a sanitiser for what a
// terminal or a markdown reader must not receive raw belongs here.
func shown(s string) string { return s }
