package compose

import (
	"context"
	"fmt"
	"strings"
)

// labImages are the images docker-compose.yml builds, in the order it starts them.
var labImages = []string{kafkaImage, flinkImage}

// The notes of the images check, as plain sentences.
const (
	noteBuildTakes = "the first `labtui run --backend compose` builds them (`docker compose up --build`): it downloads about 1 GB (Debian's OpenJDK and Python, Kafka's jars from Maven Central, PyFlink from PyPI) and takes several minutes; `docker compose -f compose/docker-compose.yml build` does it beforehand"
	noteBaseLocal  = "from " + baseImage + ", which this engine has"
	noteBasePull   = "from " + baseImage + ", which the build pulls from Docker Hub; with no Docker Hub, make it from Debian: `debootstrap --variant=minbase bookworm ROOT && tar -C ROOT -c . | docker import - " + baseImage + "`"
)

// checkImages reports whether the engine has the lab's images (`docker image inspect`).
// Images not built yet are a Note, not a Problem: the lab's start builds them. The
// note says what the build needs: the base image, here or from Docker Hub.
func (c *Checker) checkImages(ctx context.Context, docker string) Result {
	var missing []string
	for _, img := range labImages {
		if !c.hasImage(ctx, docker, img) {
			missing = append(missing, img)
		}
	}
	if len(missing) == 0 {
		return Result{Name: CheckImages, Status: OK, Detail: strings.Join(labImages, " and ") + " are built"}
	}
	base := noteBasePull
	if c.hasImage(ctx, docker, baseImage) {
		base = noteBaseLocal
	}
	return Result{Name: CheckImages, Status: Note,
		Detail: fmt.Sprintf("%s not built yet: %s, %s.", strings.Join(missing, " and "), noteBuildTakes, base)}
}

// hasImage runs `docker image inspect --format {{.Id}} IMAGE`, which fails when the
// engine has no image of that name.
func (c *Checker) hasImage(ctx context.Context, docker, image string) bool {
	out, _, err := c.runDocker(ctx, docker, "image", "inspect", "--format", "{{.Id}}", image)
	return err == nil && strings.TrimSpace(string(out)) != ""
}
