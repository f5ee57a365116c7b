// Package skew draws the picture of Akidau's "Streaming 101" for one run of the
// GatewayMeter job: event time on the x axis, processing time on the y axis (growing
// upwards), the ideal diagonal where the two are equal, each record a dot at (its
// timestamp, its arrival at the windows), the held gateway's dots in their own colour, the
// watermark as a line, event-time windows as vertical strips that close where the
// watermark crosses them, processing-time windows as horizontal bands labelled with their
// sums, and marks for a hiccup's start and flush.
//
// Build makes the Model from a run's results (with traces); WriteSVG draws it as an SVG
// file for a report, Render as braille text for a terminal of a given size.
package skew
