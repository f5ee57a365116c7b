"""floor.py: what PyFlink charges a record for each Python operator it passes through.

A job of the lab's shape but with no logic: the topic's values from the earliest offset,
through N Python operators that hand each value on unchanged, then one that counts them and
prints `floor-done> N` when it has seen --records of them. A rebalance() stands between the
operators, so PyFlink cannot chain them into one: each is a trip from the JVM to the Python
worker and back, as each of the lab's job's Python operators is. With --parse the first
operator is the lab's own parse_event, and the rest carry its Event rows.

floor.sh submits it with `flink run -py` and reads the CPU time it cost.
"""

import argparse
import os
import sys

import cloudpickle
from pyflink.common import Configuration, SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource
from pyflink.datastream.functions import ProcessFunction

JOB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "job")
sys.path.insert(0, JOB_DIR)
import gateway_meter  # noqa: E402  (the lab's job, for parse_event and its Event type)

# The job's functions travel by value, so the workers need no copy of gateway_meter.py: a job
# given one with env.add_python_file keeps its classes loaded in the TaskManager after it is
# cancelled (about 37 MB of metaspace a job, measured on Flink 2.2.1), and a few such jobs
# fill the TaskManager's 256 MB of metaspace and stop it.
cloudpickle.register_pickle_by_value(gateway_meter)


class Parse(ProcessFunction):
    def process_element(self, raw, ctx):
        try:
            yield gateway_meter.parse_event(raw)
        except gateway_meter.MalformedEvent:
            pass


class Pass(ProcessFunction):
    def process_element(self, value, ctx):
        yield value


class Count(ProcessFunction):
    def __init__(self, records: int):
        self.records = records
        self.seen = 0

    def process_element(self, value, ctx):
        self.seen += 1
        if self.seen == self.records:
            yield str(self.seen)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bootstrap", required=True)
    p.add_argument("--jars", required=True)
    p.add_argument("--topic", required=True)
    p.add_argument("--group-id", required=True)
    p.add_argument("--records", type=int, required=True, help="how many values the topic holds")
    p.add_argument("--trips", type=int, required=True,
                   help="Python operators a value passes through, the counting one included")
    p.add_argument("--parse", action="store_true", help="the first one is the lab's parse_event")
    opts = p.parse_args()
    if opts.trips < 1 or (opts.parse and opts.trips < 2):
        p.error("--trips must be at least 1, and at least 2 with --parse")

    config = Configuration()  # the bundles of a replay's job (PyFlink's own)
    config.set_string("python.fn-execution.bundle.time", "1000")
    config.set_string("python.fn-execution.bundle.size", "100000")
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.add_jars(opts.jars)
    env.set_parallelism(1)
    source = (KafkaSource.builder().set_bootstrap_servers(opts.bootstrap)
              .set_topics(opts.topic).set_group_id(opts.group_id)
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_value_only_deserializer(SimpleStringSchema()).build())
    stream = env.from_source(source, WatermarkStrategy.no_watermarks(), "values")
    passes = opts.trips - 1
    if opts.parse:
        stream = stream.process(Parse(), output_type=gateway_meter.event_type())
        passes -= 1
    for _ in range(passes):
        stream = stream.rebalance().process(
            Pass(), output_type=gateway_meter.event_type() if opts.parse else Types.STRING())
    stream.rebalance().process(Count(opts.records), output_type=Types.STRING()).print("floor-done")
    env.execute("pyflink-floor")


if __name__ == "__main__":
    main()
