package export

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/labtui/labtui/internal/skew"
	"github.com/labtui/labtui/internal/state"
)

// SkewFile is the name of the skew picture written beside the answers.
const SkewFile = "lab-04-skew.svg"

// Picture is a skew picture of one run to write beside the answers, as evidence of one
// exercise.
type Picture struct {
	Model skew.Model
	// Title is written above the picture and under its reference.
	Title string
	// Exercise is the exercise the picture is evidence for, and Run the run drawn.
	Exercise string
	Run      state.RunRef
}

// PictureRef is the picture in the document: its file, beside the answers, and what it
// shows.
type PictureRef struct {
	File    string `json:"file"`
	Title   string `json:"title"`
	Records int    `json:"records"`
	Held    string `json:"held,omitempty"`
	Late    int    `json:"late"`
}

// ref describes the picture as written to file.
func (p *Picture) ref(file string) *PictureRef {
	r := &PictureRef{File: file, Title: p.Title, Records: len(p.Model.Points), Held: p.Model.Held}
	for _, pt := range p.Model.Points {
		if pt.Late {
			r.Late++
		}
	}
	return r
}

// writeSVG writes the picture into dir as SkewFile, atomically, and returns its path.
func (p *Picture) writeSVG(dir string) (string, error) {
	var buf bytes.Buffer
	if err := skew.WriteSVG(&buf, p.Model, skew.SVGOptions{Title: p.Title}); err != nil {
		return "", fmt.Errorf("draw the skew picture: %w", err)
	}
	path := filepath.Join(dir, SkewFile)
	if err := state.WriteFileAtomic(path, buf.Bytes()); err != nil {
		return "", err
	}
	return path, nil
}

// Saved is the picture as the state keeps it once written to file.
func (p *Picture) Saved(file string) state.Picture {
	r := p.ref(file)
	return state.Picture{File: r.File, Title: r.Title, Records: r.Records, Held: r.Held, Late: r.Late, Exercise: p.Exercise, Run: p.Run}
}

// attach puts the picture's reference in the evidence of its exercise.
func (d *Document) attach(ref *PictureRef, exercise string) {
	for i := range d.Exercises {
		if e := &d.Exercises[i]; e.ID == exercise {
			if e.Evidence == nil {
				e.Evidence = &Evidence{}
			}
			e.Evidence.Picture = ref
		}
	}
}
