package compose

// Names and addresses fixed by docker-compose.yml.
const (
	// File is the compose file's name inside this package's directory.
	File = "docker-compose.yml"

	// ProjectName is the compose project name set by the file's top-level `name:`,
	// so every `docker compose` command finds the same containers.
	ProjectName = "labtui-lab4"

	// kafkaService is the single-node KRaft broker.
	kafkaService = "kafka"
	// topicService is the one-shot service that creates Topic and exits.
	topicService = "kafka-init"
	// JobManagerService runs Flink's jobmanager and serves the web UI and REST API.
	JobManagerService = "jobmanager"
	// TaskManagerService runs Flink's taskmanager, whose stdout carries the print sinks.
	TaskManagerService = "taskmanager"

	// Topic is the lab's topic, created with TopicPartitions partitions.
	Topic = "gateway-events"
	// TopicPartitions is the partition count of Topic.
	TopicPartitions = 3

	// KafkaHostPort is the broker's port published on 127.0.0.1 for labtui.
	KafkaHostPort = 9092
	// KafkaInternalAddr is the broker's address inside the compose network.
	KafkaInternalAddr = "kafka:29092"
	// FlinkWebPort is the Flink web UI and REST API port published on 127.0.0.1.
	FlinkWebPort = 8081
	// HostIP is the only host address the cluster publishes ports on.
	HostIP = "127.0.0.1"

	// kafkaImage and FlinkImage are the images the compose file builds (kafka/ and
	// flink/), from BaseImage.
	kafkaImage = "labtui-lab4/kafka:4.1.1"
	flinkImage = "labtui-lab4/pyflink:2.2.1"
	// baseImage is what both Dockerfiles build FROM.
	baseImage = "debian:bookworm-slim"

	// LabsMount is where the repository's labs folder is mounted, read-only, in
	// both Flink containers.
	LabsMount = "/opt/labs"

	// PythonJarOptDir is the folder of the Flink image that holds labtui's copy of
	// flink-python's jar (flink/pythonjar), given to `flink run` as FLINK_OPT_DIR.
	PythonJarOptDir = "/opt/flink-python-patched"
)
