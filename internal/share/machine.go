package share

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// machineFontDirs are where the machine's fonts are looked for when no
// embedded subset has a character (a model or GPU named in a script the
// site's own strings never use). Tests point it elsewhere.
var machineFontDirs = func() []string {
	dirs := []string{"/usr/share/fonts", "/usr/local/share/fonts"}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local/share/fonts"), filepath.Join(home, ".fonts"))
	}
	return dirs
}()

// maxMachineFont skips font files too large to be worth reading for one
// character.
const maxMachineFont = 64 << 20

// machine remembers, per character, the machine font that has it (or nil),
// so each missing character costs one walk over the font files per
// process, and only fonts that had a character stay in memory.
var machine struct {
	mu     sync.Mutex
	dirs   []string
	files  []string
	byRune map[rune]*opentype.Font
	kept   map[string][]*opentype.Font
}

// machineFont returns a machine font with a glyph for r, or nil.
func machineFont(r rune) *opentype.Font {
	machine.mu.Lock()
	defer machine.mu.Unlock()
	if machine.byRune == nil || !slices.Equal(machine.dirs, machineFontDirs) {
		machine.dirs = slices.Clone(machineFontDirs)
		machine.files = fontFilesIn(machine.dirs)
		machine.byRune = map[rune]*opentype.Font{}
		machine.kept = map[string][]*opentype.Font{}
	}
	if f, ok := machine.byRune[r]; ok {
		return f
	}
	var found *opentype.Font
	var buf sfnt.Buffer
	for _, p := range machine.files {
		fonts, kept := machine.kept[p]
		if !kept {
			fonts = parseFontFile(p)
		}
		if i := fontIndex(fonts, &buf, r); i >= 0 {
			found = fonts[i]
			machine.kept[p] = fonts
			break
		}
	}
	machine.byRune[r] = found
	return found
}

// fontFilesIn lists the upright font files under dirs, regular weights
// first, in a stable order.
func fontFilesIn(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil
			}
			name := strings.ToLower(e.Name())
			ext := filepath.Ext(name)
			if (ext == ".ttf" || ext == ".otf" || ext == ".ttc") && !strings.Contains(name, "italic") && !strings.Contains(name, "oblique") {
				out = append(out, p)
			}
			return nil
		})
	}
	regular := func(p string) int {
		if strings.Contains(strings.ToLower(filepath.Base(p)), "regular") {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b string) int {
		if d := regular(a) - regular(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out
}

// parseFontFile reads a font or a collection; an unreadable file is none.
func parseFontFile(p string) []*opentype.Font {
	if st, err := os.Stat(p); err != nil || st.Size() > maxMachineFont {
		return nil
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	if strings.EqualFold(filepath.Ext(p), ".ttc") {
		c, err := opentype.ParseCollection(raw)
		if err != nil {
			return nil
		}
		var out []*opentype.Font
		for i := range c.NumFonts() {
			if f, err := c.Font(i); err == nil {
				out = append(out, f)
			}
		}
		return out
	}
	f, err := opentype.Parse(raw)
	if err != nil {
		return nil
	}
	return []*opentype.Font{f}
}
