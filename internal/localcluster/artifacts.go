package localcluster

// The jars the cluster needs, pinned: the artifacts Maven resolves for the conformance
// scripts' pom.xml (dependency:copy for the connector, dependency:copy-dependencies with
// runtime scope for the broker), each with its path in a Maven repository, its size and
// its SHA-256, listed from a cache env.sh made. Install fetches them from Maven Central
// and checks each, so it needs no Maven; a new Kafka or connector version is a new list.

// connectorJar is the Kafka connector for Flink the job ships with --jars.
var connectorJar = artifact{"org/apache/flink/flink-sql-connector-kafka/5.0.0-2.2/flink-sql-connector-kafka-5.0.0-2.2.jar", 10666527, "5605c691d11a501382c383fecba37a7a552467da5ab7ba904ef5d6f3d62c5616"}

// brokerJars are kafka_2.13 and kafka-tools 4.1.1 with slf4j-simple and their runtime dependencies:
// the broker (kafka.Kafka), its storage tool and the command-line tools.
var brokerJars = []artifact{
	{"org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar", 177206, "22d1d4316c4ec13a68b559e98c8256d69071593731da96136640f864fa14fad8"},
	{"net/sourceforge/argparse4j/argparse4j/0.7.0/argparse4j-0.7.0.jar", 90347, "65ceb669d88f63306c680f8088bbf765bbca72d288a61a03703000076c3d3f56"},
	{"com/github/ben-manes/caffeine/caffeine/3.2.0/caffeine-3.2.0.jar", 906581, "ec411dfdf0c03f25218648ce89861630b71680e5858a9a7278ebac8e55cab3d7"},
	{"commons-beanutils/commons-beanutils/1.9.4/commons-beanutils-1.9.4.jar", 246918, "7d938c81789028045c08c065e94be75fc280527620d5bd62b519d5838532368a"},
	{"commons-collections/commons-collections/3.2.2/commons-collections-3.2.2.jar", 588337, "eeeae917917144a68a741d4c0dff66aa5c5c5fd85593ff217bced3fc8ca783b8"},
	{"commons-digester/commons-digester/2.1/commons-digester-2.1.jar", 196768, "e0b2b980a84fc6533c5ce291f1917b32c507f62bcad64198fff44368c2196a3d"},
	{"commons-logging/commons-logging/1.3.2/commons-logging-1.3.2.jar", 71613, "6b858424f518015f32bfcd1183a373f4a827d72d026b6031da0c91cf0e8f3489"},
	{"commons-validator/commons-validator/1.9.0/commons-validator-1.9.0.jar", 201424, "c3c14748e2d78db58df88808740711bd643b32c45ffa7b8a739f00fb467cd7d7"},
	{"com/dynatrace/hash4j/hash4j/0.22.0/hash4j-0.22.0.jar", 316573, "23028a3fd006e530bf495f551083208187cafd8f80624d048eba56442f16a50e"},
	{"com/fasterxml/jackson/core/jackson-annotations/2.19.0/jackson-annotations-2.19.0.jar", 78580, "ead60e9cac0e42b57092b9e2d087ff43536e9477d4486ba393037a8cc156cda7"},
	{"com/fasterxml/jackson/core/jackson-core/2.19.0/jackson-core-2.19.0.jar", 599926, "da8e859bac94874528116a25f20c68560e4287acbf27628711b8a4f96b028430"},
	{"com/fasterxml/jackson/core/jackson-databind/2.19.0/jackson-databind-2.19.0.jar", 1678748, "ceda311f476c3b18e1d2b240c94e2dcb9c8d44e70f8afa9facab88bac4ddc03a"},
	{"com/fasterxml/jackson/dataformat/jackson-dataformat-csv/2.19.0/jackson-dataformat-csv-2.19.0.jar", 106990, "bec1150426b0616bb488149b952b45a0dcb16d9416b017c38f6455ad9389bc68"},
	{"com/fasterxml/jackson/dataformat/jackson-dataformat-yaml/2.19.0/jackson-dataformat-yaml-2.19.0.jar", 60230, "46e54dcbd39d4d12cda18ec9276e7b888e08fc765ea0c77e71662306f0d4abc4"},
	{"com/fasterxml/jackson/datatype/jackson-datatype-jdk8/2.19.0/jackson-datatype-jdk8-2.19.0.jar", 36215, "04f1a3f9da8155995dd00098d6847cdb9b7af67f4a3028c94031eff017c8e3e5"},
	{"com/fasterxml/jackson/jakarta/rs/jackson-jakarta-rs-base/2.19.0/jackson-jakarta-rs-base-2.19.0.jar", 33143, "f87bcd81a04b78c8aece6e1700a483ed9efd9c4afaf85bf8f7d4becb874e764e"},
	{"com/fasterxml/jackson/jakarta/rs/jackson-jakarta-rs-json-provider/2.19.0/jackson-jakarta-rs-json-provider-2.19.0.jar", 17597, "86a4036dbc517ab520208ea2b9f5f4a5b71b66e238878a84a26ac2fc860cc355"},
	{"com/fasterxml/jackson/module/jackson-module-jakarta-xmlbind-annotations/2.19.0/jackson-module-jakarta-xmlbind-annotations-2.19.0.jar", 32572, "b032db242a4d6f7171ae619c48631480e78e350c5f2c10c348f2e2245bc36420"},
	{"com/sun/activation/jakarta.activation/2.0.1/jakarta.activation-2.0.1.jar", 62154, "b9e24b7dd6e07495562ea96531be3130c96dba4d78e1dfd88adbbdebf4332871"},
	{"jakarta/activation/jakarta.activation-api/2.1.0/jakarta.activation-api-2.1.0.jar", 63473, "56e8d994095fe49c28138c60291482f66f18d12ac2b720e938697dce6a3135c7"},
	{"jakarta/xml/bind/jakarta.xml.bind-api/3.0.1/jakarta.xml.bind-api-3.0.1.jar", 128941, "b8fb4bee3ff5b5c1ef77144d8411316018d7bbd41fcf1ede0646f7978546b867"},
	{"net/sf/jopt-simple/jopt-simple/5.0.4/jopt-simple-5.0.4.jar", 78146, "df26cc58f235f477db07f753ba5a3ab243ebe5789d9f89ecf68dd62ea9a66c28"},
	{"org/bitbucket/b_c/jose4j/0.9.6/jose4j-0.9.6.jar", 299502, "7314af50cde9c99e8eaf43eee617a23edcc6bb43036221064355094999d837ef"},
	{"org/jspecify/jspecify/1.0.0/jspecify-1.0.0.jar", 3819, "1fad6e6be7557781e4d33729d49ae1cdc8fdda6fe477bb0cc68ce351eafdfbab"},
	{"org/apache/kafka/kafka-clients/4.1.1/kafka-clients-4.1.1.jar", 9766726, "00247122a572c3d3ae4eb60a50192a5811bc0181f51923d13018600f892e821d"},
	{"org/apache/kafka/kafka-coordinator-common/4.1.1/kafka-coordinator-common-4.1.1.jar", 100775, "2072fc1ce7e0505149bba22a463a5909a899c6235c4fa696f15c21194a7baf60"},
	{"org/apache/kafka/kafka-group-coordinator/4.1.1/kafka-group-coordinator-4.1.1.jar", 914943, "3eb5a673b69d5992cfa86c5436f39adbf4ce284046a4c999ec6af0a8e31c5589"},
	{"org/apache/kafka/kafka-group-coordinator-api/4.1.1/kafka-group-coordinator-api-4.1.1.jar", 11914, "3d1801d2329dcf7d273796a034d61e6c7e0f851f384d0afbdd3a2e6cbd17a968"},
	{"org/apache/kafka/kafka-metadata/4.1.1/kafka-metadata-4.1.1.jar", 840858, "a689665751415b6456de1ecb013042cb7ba99ac68fd8c3e8bf28e098feb43218"},
	{"org/apache/kafka/kafka-raft/4.1.1/kafka-raft-4.1.1.jar", 309751, "4810c93d93d1935dd54de61c5ba130f501c7fe11bc49ccd3ee05ec857818a72a"},
	{"org/apache/kafka/kafka-server/4.1.1/kafka-server-4.1.1.jar", 219116, "9f6aff422855491aad54326eca8d604163d6d3a6507cc48ffe3ce6de73caf79a"},
	{"org/apache/kafka/kafka-server-common/4.1.1/kafka-server-common-4.1.1.jar", 371073, "207edecd8322cf6c13d76d84addea7fd0ec441dc8d698cf69df43210ccdc0a94"},
	{"org/apache/kafka/kafka-share-coordinator/4.1.1/kafka-share-coordinator-4.1.1.jar", 111777, "e6bec53428c77bf6579321836d482542a93575f7c08e860a26c9f2c7f6059dac"},
	{"org/apache/kafka/kafka-storage/4.1.1/kafka-storage-4.1.1.jar", 591039, "1f85b82853eaec0143efbef7e3a4d4be8929ff83a386326431e0c2d0a557e58c"},
	{"org/apache/kafka/kafka-storage-api/4.1.1/kafka-storage-api-4.1.1.jar", 26987, "8c0a712472185d706c6bf5ae24bf5d84a8e396fd4745c708e6146a415f7fa7f7"},
	{"org/apache/kafka/kafka-tools/4.1.1/kafka-tools-4.1.1.jar", 615926, "8a6939f310a61119cedaffc144119e9b2a374e32a7ec18f78e49ce5aeb71d6b0"},
	{"org/apache/kafka/kafka-tools-api/4.1.1/kafka-tools-api-4.1.1.jar", 9072, "542b08fe20cf872a2d866acdff61ea338b469219dc2ebfae727a1d9ea5737e1a"},
	{"org/apache/kafka/kafka-transaction-coordinator/4.1.1/kafka-transaction-coordinator-4.1.1.jar", 50212, "a261b5730ac9e3205df7af5d45180d851e9d5f729ce1275c67511a6f51f73755"},
	{"org/apache/kafka/kafka_2.13/4.1.1/kafka_2.13-4.1.1.jar", 2063699, "e89428126cc7630a802123ba27aac4442816840b66d60670226feaff65f24fd1"},
	{"org/apache/logging/log4j/log4j-api/2.24.3/log4j-api-2.24.3.jar", 348513, "5b4a0a0cd0e751ded431c162442bdbdd53328d1f8bb2bae5fc1bbeee0f66d80f"},
	{"org/apache/logging/log4j/log4j-core/2.24.3/log4j-core-2.24.3.jar", 1914666, "7eb4084596ae25bd3c61698e48e8d0ab65a9260758884ed5cbb9c6e55c44a56a"},
	{"org/lz4/lz4-java/1.8.0/lz4-java-1.8.0.jar", 682804, "d74a3334fb35195009b338a951f918203d6bbca3d1d359033dc33edd1cadc9ef"},
	{"com/yammer/metrics/metrics-core/2.2.0/metrics-core-2.2.0.jar", 82123, "6b7a14a6f34c10f8683f7b5e2f39df0f07b58c7dff0e468ebbc713905c46979c"},
	{"org/pcollections/pcollections/4.0.2/pcollections-4.0.2.jar", 73718, "2bbeef5797a241300c4f7513cd546239629ed7deda4fc0c31df90bb95f5f13ef"},
	{"com/google/re2j/re2j/1.8/re2j-1.8.jar", 114335, "7b52c72156dd7f98b3237a5b35c1d34fba381b21048c89208913ad80a45dfbd7"},
	{"org/scala-lang/scala-library/2.13.16/scala-library-2.13.16.jar", 5926340, "1ebb2b6f9e4eb4022497c19b1e1e825019c08514f962aaac197145f88ed730f1"},
	{"com/typesafe/scala-logging/scala-logging_2.13/3.9.5/scala-logging_2.13-3.9.5.jar", 61858, "87a3017d3f43e6ace7566fe4c3d615134c6914ff871c8d64bb32ca1d996d0545"},
	{"org/scala-lang/scala-reflect/2.13.16/scala-reflect-2.13.16.jar", 3801119, "fb49ccd9cac7464486ab993cda20a3c1569d8ef26f052e897577ad2a4970fb1d"},
	{"org/slf4j/slf4j-api/1.7.36/slf4j-api-1.7.36.jar", 41125, "d3ef575e3e4979678dc01bf1dcce51021493b4d11fb7f1be8ad982877c16a1c0"},
	{"org/slf4j/slf4j-simple/1.7.36/slf4j-simple-1.7.36.jar", 15333, "2f39bed943d624dfa8f4102d0571283a10870b6aa36f197a8a506f147010c10f"},
	{"org/yaml/snakeyaml/2.4/snakeyaml-2.4.jar", 339825, "ef779af5d29a9dde8cc70ce0341f5c6f7735e23edff9685ceaa9d35359b7bb7f"},
	{"org/xerial/snappy/snappy-java/1.1.10.7/snappy-java-1.1.10.7.jar", 2338496, "4c766cb3f855415ee734b2392949a0b6f12a60879334a74518deaf6270d32e36"},
	{"com/github/luben/zstd-jni/1.5.6-10/zstd-jni-1.5.6-10.jar", 7305999, "b6c3237e24b8252a5a9c3a0e1ae30ef8f323412e74bd358548b7a9e527d676df"},
}
