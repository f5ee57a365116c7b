#!/bin/sh
# kafka-broker-api-versions.sh of Kafka's distribution: a short-lived tool, started with C1 only.
exec java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp '/opt/kafka/libs/*' \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
