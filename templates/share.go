package templates

import (
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/share"
)

// AddPreview dresses a report page for sharing: the headline becomes the
// page's description (and so og:description), and the head gets the card
// as og:image and a Twitter large-image card. Every value is escaped by
// the layout.
func (b *Base) AddPreview(p share.Preview) {
	b.Description = p.Headline
	b.Meta = append(b.Meta,
		MetaTag{Property: "og:image", Content: p.Card},
		MetaTag{Property: "og:image:type", Content: "image/png"},
		MetaTag{Property: "og:image:width", Content: strconv.Itoa(share.CardWidth)},
		MetaTag{Property: "og:image:height", Content: strconv.Itoa(share.CardHeight)},
		MetaTag{Property: "og:image:alt", Content: p.CardAlt},
		MetaTag{Name: "twitter:card", Content: "summary_large_image"},
		MetaTag{Name: "twitter:title", Content: p.Title},
		MetaTag{Name: "twitter:description", Content: p.Headline},
		MetaTag{Name: "twitter:image", Content: p.Card},
	)
}
