// Package compose holds the docker-compose lab: the compose file that runs Kafka
// and Flink with the lab's PyFlink job, the image it builds, and the checks that
// `labtui doctor` runs before labtui drives that cluster with `docker compose`.
//
// The compose file lives beside this package (docker-compose.yml, flink/Dockerfile);
// the names below are the ones that file uses, and compose_test.go holds the file
// to them.
package compose
