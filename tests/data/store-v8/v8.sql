PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
PRAGMA application_id = 1094861390;
PRAGMA user_version = 8;
CREATE TABLE runs (
	id INTEGER PRIMARY KEY,
	uuid TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL DEFAULT '',
	host TEXT NOT NULL DEFAULT '',
	status TEXT NOT NULL,
	started_wall_ns INTEGER NOT NULL DEFAULT 0,
	ended_wall_ns INTEGER NOT NULL DEFAULT 0,
	order_kind TEXT NOT NULL DEFAULT '',
	seed INTEGER NOT NULL DEFAULT 0,
	rounds INTEGER NOT NULL DEFAULT 0,
	warmup INTEGER NOT NULL DEFAULT 0,
	experiment_path TEXT NOT NULL DEFAULT '',
	experiment_text TEXT NOT NULL DEFAULT '',
	abbench_version TEXT NOT NULL DEFAULT '',
	pid INTEGER NOT NULL DEFAULT 0
, pid_start TEXT NOT NULL DEFAULT '');
INSERT INTO runs VALUES(1,'d70ca7af-32d2-4f8d-9bf2-0fa8e0e939ae','cmds','vm','done',1796632453469816726,1796632455788169233,'alternate',1015488761941157351,3,1,'cmd.ini',replace('[experiment]\nname = cmds\nrounds = 3\nwarmup = 1\ntimeout = 500ms\n\n[arm ok]\nargs = true\n\n[arm fails]\nargs = sh -c "echo broken pipe dream >&2; exit 3"\n\n[arm hangs]\nargs = sleep 30.4242\n\n[workload Cmd]\ntype = command\nreport = time rss\n','\n',char(10)),'0.1.0',5211,'f10380a8-7c8a-4fa8-ad0d-ecfb29cb676f:1234522');
INSERT INTO runs VALUES(2,'c911e2f8-1eb1-4140-baa7-c51d82ca3d09','three','vm','done',1796632455958334351,1796632456120121104,'alternate',-5706477474585243159,2,0,'three.ini',replace('[experiment]\nname = three\nrounds = 2\n\n[arm a]\n\n[arm b]\n\n[workload g]\ntype = gobench\nargs = /tmp/stor/fx/three.sh\n','\n',char(10)),'0.1.0',5442,'f10380a8-7c8a-4fa8-ad0d-ecfb29cb676f:1234778');
INSERT INTO runs VALUES(3,'e880a84c-c59b-4aa1-a18d-64d88ad09495','cfg','h1','imported',1796632456206830861,1796632456206830861,'',0,0,0,'old.txt new.txt','','0.1.0',0,'');
INSERT INTO runs VALUES(4,'90eb56c5-192f-463f-b51d-37f42df79c0f','mu','h2','imported',1796632456228446951,1796632456228446951,'',0,0,0,'old.txt new.txt','','0.1.0',0,'');
INSERT INTO runs VALUES(5,'4094fd96-49b5-4dc5-a8d8-b9b33ecfafa5','meta','h3','imported',1796632456266444694,1796632456266444694,'',0,0,0,'before.txt after.txt','','0.1.0',0,'');
CREATE TABLE arms (
	run_id INTEGER NOT NULL
	    REFERENCES runs(id) ON DELETE CASCADE,
	idx INTEGER NOT NULL,
	name TEXT NOT NULL,
	PRIMARY KEY (run_id, idx),
	UNIQUE (run_id, name)
);
INSERT INTO arms VALUES(1,0,'ok');
INSERT INTO arms VALUES(1,1,'fails');
INSERT INTO arms VALUES(1,2,'hangs');
INSERT INTO arms VALUES(2,0,'a');
INSERT INTO arms VALUES(2,1,'b');
INSERT INTO arms VALUES(3,0,'old.txt');
INSERT INTO arms VALUES(3,1,'new.txt');
INSERT INTO arms VALUES(4,0,'old.txt');
INSERT INTO arms VALUES(4,1,'new.txt');
INSERT INTO arms VALUES(5,0,'before.txt');
INSERT INTO arms VALUES(5,1,'after.txt');
CREATE TABLE run_config (
	run_id INTEGER NOT NULL
	    REFERENCES runs(id) ON DELETE CASCADE,
	arm TEXT NOT NULL DEFAULT '',
	seq INTEGER NOT NULL,
	key TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (run_id, arm, key)
);
INSERT INTO run_config VALUES(1,'',0,'goos','linux');
INSERT INTO run_config VALUES(1,'',1,'goarch','amd64');
INSERT INTO run_config VALUES(1,'',2,'cpu','AMD EPYC');
INSERT INTO run_config VALUES(1,'',3,'kernel','6.18.44-fc-v1300');
INSERT INTO run_config VALUES(1,'',4,'host','vm');
INSERT INTO run_config VALUES(1,'',5,'vcpus','2');
INSERT INTO run_config VALUES(1,'',6,'memory','23.54GiB');
INSERT INTO run_config VALUES(1,'',7,'swap-total','0KiB');
INSERT INTO run_config VALUES(1,'',8,'swap-used','0KiB');
INSERT INTO run_config VALUES(1,'',9,'cgroup','hybrid');
INSERT INTO run_config VALUES(1,'',10,'docker','20.10.24+dfsg1');
INSERT INTO run_config VALUES(1,'',11,'thp-enabled','madvise');
INSERT INTO run_config VALUES(1,'',12,'thp-defrag','madvise');
INSERT INTO run_config VALUES(1,'',13,'cpuidle-states','POLL,haltpoll idle');
INSERT INTO run_config VALUES(1,'',14,'load-avg','15.15 12.23 6.59');
INSERT INTO run_config VALUES(1,'',15,'abbench-version','0.1.0');
INSERT INTO run_config VALUES(1,'',16,'program-ok','true');
INSERT INTO run_config VALUES(1,'',17,'program-path-ok','/usr/bin/true');
INSERT INTO run_config VALUES(1,'',18,'program-sha256-ok','c79bf44242829108e323378531f4ac839513ca1fba45efd6583643526e1e9fd2');
INSERT INTO run_config VALUES(1,'',19,'program-version-ok','true (GNU coreutils) 9.1');
INSERT INTO run_config VALUES(1,'',20,'program-fails','sh');
INSERT INTO run_config VALUES(1,'',21,'program-path-fails','/usr/bin/dash');
INSERT INTO run_config VALUES(1,'',22,'program-sha256-fails','f5adb8bf0100ed0f8c7782ca5f92814e9229525a4b4e0d401cf3bea09ac960a6');
INSERT INTO run_config VALUES(1,'',23,'tool-fails','echo');
INSERT INTO run_config VALUES(1,'',24,'tool-path-fails','/usr/bin/echo');
INSERT INTO run_config VALUES(1,'',25,'tool-sha256-fails','a049fb47554c6cde2ee452e5d87f6386abb63af7cdcae9cd0dc99fc80e0bcf35');
INSERT INTO run_config VALUES(1,'',26,'tool-version-fails','echo (GNU coreutils) 9.1');
INSERT INTO run_config VALUES(1,'',27,'program-hangs','sleep');
INSERT INTO run_config VALUES(1,'',28,'program-path-hangs','/usr/bin/sleep');
INSERT INTO run_config VALUES(1,'',29,'program-sha256-hangs','4add4bb89d8ca0e3b1bd861130ddd7ae0fd9617a8055de0a38c8d2ca1ac95723');
INSERT INTO run_config VALUES(1,'',30,'program-version-hangs','sleep (GNU coreutils) 9.1');
INSERT INTO run_config VALUES(1,'',31,'load-avg-end','15.15 12.23 6.59');
INSERT INTO run_config VALUES(1,'',32,'pressure','cpu 99.5% some; io 1.0% some, 0.0% full; memory 0.0% some, 0.0% full; over 2.3 s');
INSERT INTO run_config VALUES(2,'',0,'goos','linux');
INSERT INTO run_config VALUES(2,'',1,'goarch','amd64');
INSERT INTO run_config VALUES(2,'',2,'cpu','AMD EPYC');
INSERT INTO run_config VALUES(2,'',3,'kernel','6.18.44-fc-v1300');
INSERT INTO run_config VALUES(2,'',4,'host','vm');
INSERT INTO run_config VALUES(2,'',5,'vcpus','2');
INSERT INTO run_config VALUES(2,'',6,'memory','23.54GiB');
INSERT INTO run_config VALUES(2,'',7,'swap-total','0KiB');
INSERT INTO run_config VALUES(2,'',8,'swap-used','0KiB');
INSERT INTO run_config VALUES(2,'',9,'cgroup','hybrid');
INSERT INTO run_config VALUES(2,'',10,'docker','20.10.24+dfsg1');
INSERT INTO run_config VALUES(2,'',11,'thp-enabled','madvise');
INSERT INTO run_config VALUES(2,'',12,'thp-defrag','madvise');
INSERT INTO run_config VALUES(2,'',13,'cpuidle-states','POLL,haltpoll idle');
INSERT INTO run_config VALUES(2,'',14,'load-avg','15.15 12.23 6.59');
INSERT INTO run_config VALUES(2,'',15,'abbench-version','0.1.0');
INSERT INTO run_config VALUES(2,'',16,'program-g','/tmp/stor/fx/three.sh');
INSERT INTO run_config VALUES(2,'',17,'program-path-g','/tmp/stor/fx/three.sh');
INSERT INTO run_config VALUES(2,'',18,'program-sha256-g','88d541b74495c8965e0019bfef3a753496d157a307caa0770f9f155c51ec00a6');
INSERT INTO run_config VALUES(2,'',19,'load-avg-end','15.15 12.23 6.59');
INSERT INTO run_config VALUES(2,'',20,'pressure','cpu 96.7% some; io 3.0% some, 0.0% full; memory 0.0% some, 0.0% full; over 0.2 s');
CREATE TABLE units (
	run_id INTEGER NOT NULL
	    REFERENCES runs(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	unit TEXT NOT NULL,
	key TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (run_id, unit, key)
);
INSERT INTO units VALUES(1,0,'sec/op','better','lower');
INSERT INTO units VALUES(1,1,'user-sec/op','better','lower');
INSERT INTO units VALUES(1,2,'sys-sec/op','better','lower');
INSERT INTO units VALUES(1,3,'cpu-sec/op','better','lower');
INSERT INTO units VALUES(1,4,'max-rss-B','better','lower');
INSERT INTO units VALUES(5,0,'text-bytes','assume','exact');
INSERT INTO units VALUES(5,1,'data-bytes','assume','exact');
INSERT INTO units VALUES(5,2,'data-bytes','better','lower');
CREATE TABLE sample_configs (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL
	    REFERENCES runs(id) ON DELETE CASCADE,
	text TEXT NOT NULL,
	UNIQUE (run_id, text)
);
INSERT INTO sample_configs VALUES(1,3,replace('goos: linux\ngoarch: amd64\npkg: example.com/alpha\ncpu: Intel(R) Xeon(R) CPU @ 2.20GHz\n','\n',char(10)));
INSERT INTO sample_configs VALUES(2,3,replace('goos: linux\ngoarch: amd64\npkg: example.com/beta\ncpu: Intel(R) Xeon(R) CPU @ 2.20GHz\n','\n',char(10)));
INSERT INTO sample_configs VALUES(3,3,replace('goos: linux\ngoarch: arm64\npkg: example.com/alpha\ncpu: Intel(R) Xeon(R) CPU @ 2.20GHz\n','\n',char(10)));
INSERT INTO sample_configs VALUES(4,4,replace('goos: linux\ngoarch: amd64\npkg: example.com/pkg\n','\n',char(10)));
INSERT INTO sample_configs VALUES(5,5,'');
CREATE TABLE samples (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL
	    REFERENCES runs(id) ON DELETE CASCADE,
	plan_idx INTEGER NOT NULL,
	round INTEGER NOT NULL,
	position INTEGER NOT NULL,
	arm TEXT NOT NULL,
	workload TEXT NOT NULL DEFAULT '',
	benchmark TEXT NOT NULL,
	unit TEXT NOT NULL DEFAULT '',
	value REAL,
	status TEXT NOT NULL,
	warmup INTEGER NOT NULL DEFAULT 0,
	start_ns INTEGER NOT NULL DEFAULT 0,
	end_ns INTEGER NOT NULL DEFAULT 0,
	start_wall_ns INTEGER NOT NULL DEFAULT 0,
	end_wall_ns INTEGER NOT NULL DEFAULT 0,
	error TEXT,
	config_id INTEGER REFERENCES sample_configs(id)
, orig_unit TEXT, orig_value REAL);
INSERT INTO samples VALUES(1,1,0,0,0,'ok','Cmd','Cmd-2','sec/op',0.00094300600000000003083,'ok',1,12345536105688,12345537048694,1796632453620764823,1796632453621708171,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(2,1,0,0,0,'ok','Cmd','Cmd-2','max-rss-B',3485696.0,'ok',1,12345536105688,12345537048694,1796632453620764823,1796632453621708171,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(3,1,1,0,1,'fails','Cmd','Cmd','',NULL,'failed',1,12345537471144,12345538298889,1796632453622130399,1796632453622958255,'''sh'' exited 3: broken pipe dream',NULL,NULL,NULL);
INSERT INTO samples VALUES(4,1,2,0,2,'hangs','Cmd','Cmd','',NULL,'timeout',1,12345538473980,12346052062421,1796632453623133236,1796632454136721888,'''sleep'' timed out after 0.514s',NULL,NULL,NULL);
INSERT INTO samples VALUES(5,1,3,1,0,'hangs','Cmd','Cmd','',NULL,'timeout',0,12346084181356,12346553789401,1796632454168840612,1796632454638448867,'''sleep'' timed out after 0.47s',NULL,NULL,NULL);
INSERT INTO samples VALUES(6,1,4,1,1,'fails','Cmd','Cmd','',NULL,'failed',0,12346588173795,12346600090519,1796632454672833061,1796632454684750005,'''sh'' exited 3: broken pipe dream',NULL,NULL,NULL);
INSERT INTO samples VALUES(7,1,5,1,2,'ok','Cmd','Cmd-2','sec/op',0.00069762100000000004836,'ok',0,12346600414101,12346601111722,1796632454685073367,1796632454685771078,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(8,1,5,1,2,'ok','Cmd','Cmd-2','max-rss-B',3485696.0,'ok',0,12346600414101,12346601111722,1796632454685073367,1796632454685771078,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(9,1,6,2,0,'ok','Cmd','Cmd-2','sec/op',0.00056487300000000002439,'ok',0,12346601316026,12346601880899,1796632454685975282,1796632454686540255,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(10,1,6,2,0,'ok','Cmd','Cmd-2','max-rss-B',3485696.0,'ok',0,12346601316026,12346601880899,1796632454685975282,1796632454686540255,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(11,1,7,2,1,'fails','Cmd','Cmd','',NULL,'failed',0,12346602052224,12346602743556,1796632454686711480,1796632454687402912,'''sh'' exited 3: broken pipe dream',NULL,NULL,NULL);
INSERT INTO samples VALUES(12,1,8,2,2,'hangs','Cmd','Cmd','',NULL,'timeout',0,12346602910915,12347123649310,1796632454687570171,1796632455208308787,'''sleep'' timed out after 0.521s',NULL,NULL,NULL);
INSERT INTO samples VALUES(13,1,9,3,0,'hangs','Cmd','Cmd','',NULL,'timeout',0,12347138169247,12347648108826,1796632455222828503,1796632455732768292,'''sleep'' timed out after 0.51s',NULL,NULL,NULL);
INSERT INTO samples VALUES(14,1,10,3,1,'fails','Cmd','Cmd','',NULL,'failed',0,12347664915833,12347672108050,1796632455749575099,1796632455756767536,'''sh'' exited 3: broken pipe dream',NULL,NULL,NULL);
INSERT INTO samples VALUES(15,1,11,3,2,'ok','Cmd','Cmd-2','sec/op',0.011638878999999999544,'ok',0,12347672410131,12347684049010,1796632455757069387,1796632455768708476,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(16,1,11,3,2,'ok','Cmd','Cmd-2','max-rss-B',3485696.0,'ok',0,12347672410131,12347684049010,1796632455757069387,1796632455768708476,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(17,2,0,0,0,'a','g','DockerTrue','sec/op',0.0011000000000000000662,'ok',0,12347955566525,12347968082553,1796632456040225431,1796632456052742019,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(18,2,0,0,0,'a','g','DockerTrue','sec/op',0.0012000000000000001117,'ok',0,12347955566525,12347968082553,1796632456040225431,1796632456052742019,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(19,2,0,0,0,'a','g','DockerTrue','sec/op',0.0013000000000000001571,'ok',0,12347955566525,12347968082553,1796632456040225431,1796632456052742019,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(20,2,1,0,1,'b','g','DockerTrue','sec/op',0.0011000000000000000662,'ok',0,12347975862977,12347977507921,1796632456060522112,1796632456062167398,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(21,2,1,0,1,'b','g','DockerTrue','sec/op',0.0012000000000000001117,'ok',0,12347975862977,12347977507921,1796632456060522112,1796632456062167398,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(22,2,1,0,1,'b','g','DockerTrue','sec/op',0.0013000000000000001571,'ok',0,12347975862977,12347977507921,1796632456060522112,1796632456062167398,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(23,2,2,1,0,'b','g','DockerTrue','sec/op',0.0011000000000000000662,'ok',0,12347980506373,12347981310602,1796632456065165498,1796632456065969958,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(24,2,2,1,0,'b','g','DockerTrue','sec/op',0.0012000000000000001117,'ok',0,12347980506373,12347981310602,1796632456065165498,1796632456065969958,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(25,2,2,1,0,'b','g','DockerTrue','sec/op',0.0013000000000000001571,'ok',0,12347980506373,12347981310602,1796632456065165498,1796632456065969958,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(26,2,3,1,1,'a','g','DockerTrue','sec/op',0.0011000000000000000662,'ok',0,12347981772832,12347984620269,1796632456066432088,1796632456069279745,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(27,2,3,1,1,'a','g','DockerTrue','sec/op',0.0012000000000000001117,'ok',0,12347981772832,12347984620269,1796632456066432088,1796632456069279745,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(28,2,3,1,1,'a','g','DockerTrue','sec/op',0.0013000000000000001571,'ok',0,12347981772832,12347984620269,1796632456066432088,1796632456069279745,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(29,3,0,0,0,'old.txt','old.txt','A1-8','sec/op',9.8390000000000009516e-08,'ok',0,0,0,0,0,NULL,1,'ns/op',98.390000000000000564);
INSERT INTO samples VALUES(30,3,1,0,0,'old.txt','old.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(31,3,2,0,0,'old.txt','old.txt','A1-8','sec/op',9.736000000000000625e-08,'ok',0,0,0,0,0,NULL,1,'ns/op',97.359999999999999433);
INSERT INTO samples VALUES(32,3,3,0,0,'old.txt','old.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(33,3,4,0,0,'old.txt','old.txt','A1-8','sec/op',9.7900000000000009748e-08,'ok',0,0,0,0,0,NULL,1,'ns/op',97.90000000000000568);
INSERT INTO samples VALUES(34,3,5,0,0,'old.txt','old.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(35,3,6,0,0,'old.txt','old.txt','A1-8','sec/op',9.8790000000000013089e-08,'ok',0,0,0,0,0,NULL,1,'ns/op',98.790000000000006254);
INSERT INTO samples VALUES(36,3,7,0,0,'old.txt','old.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(37,3,8,0,0,'old.txt','old.txt','A1-8','sec/op',1.0200000000000000015e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',102.0);
INSERT INTO samples VALUES(38,3,9,0,0,'old.txt','old.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(39,3,10,0,0,'old.txt','old.txt','A1-8','sec/op',9.5920000000000001294e-08,'ok',0,0,0,0,0,NULL,1,'ns/op',95.920000000000001701);
INSERT INTO samples VALUES(40,3,11,0,0,'old.txt','old.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(41,3,12,0,0,'old.txt','old.txt','A1-8','sec/op',1.0200000000000000015e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',102.0);
INSERT INTO samples VALUES(42,3,13,0,0,'old.txt','old.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(43,3,14,0,0,'old.txt','old.txt','A1-8','sec/op',9.8110000000000009657e-08,'ok',0,0,0,0,0,NULL,1,'ns/op',98.109999999999999431);
INSERT INTO samples VALUES(44,3,15,0,0,'old.txt','old.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(45,3,16,0,0,'old.txt','old.txt','A2-8','sec/op',1.990000000000000217e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',199.0);
INSERT INTO samples VALUES(46,3,17,0,0,'old.txt','old.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(47,3,18,0,0,'old.txt','old.txt','A2-8','sec/op',1.9300000000000002091e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',193.0);
INSERT INTO samples VALUES(48,3,19,0,0,'old.txt','old.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(49,3,20,0,0,'old.txt','old.txt','A2-8','sec/op',2.0000000000000001741e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',200.0);
INSERT INTO samples VALUES(50,3,21,0,0,'old.txt','old.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(51,3,22,0,0,'old.txt','old.txt','A2-8','sec/op',1.9700000000000000377e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',197.0);
INSERT INTO samples VALUES(52,3,23,0,0,'old.txt','old.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(53,3,24,0,0,'old.txt','old.txt','A2-8','sec/op',2.0200000000000000886e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',202.0);
INSERT INTO samples VALUES(54,3,25,0,0,'old.txt','old.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(55,3,26,0,0,'old.txt','old.txt','A2-8','sec/op',2.0000000000000001741e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',200.0);
INSERT INTO samples VALUES(56,3,27,0,0,'old.txt','old.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(57,3,28,0,0,'old.txt','old.txt','A2-8','sec/op',2.0000000000000001741e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',200.0);
INSERT INTO samples VALUES(58,3,29,0,0,'old.txt','old.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(59,3,30,0,0,'old.txt','old.txt','A2-8','sec/op',1.990000000000000217e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',199.0);
INSERT INTO samples VALUES(60,3,31,0,0,'old.txt','old.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(61,3,32,0,0,'old.txt','old.txt','B1-8','sec/op',3.0000000000000003937e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',300.0);
INSERT INTO samples VALUES(62,3,33,0,0,'old.txt','old.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(63,3,34,0,0,'old.txt','old.txt','B1-8','sec/op',3.0300000000000000004e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',303.0);
INSERT INTO samples VALUES(64,3,35,0,0,'old.txt','old.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(65,3,36,0,0,'old.txt','old.txt','B1-8','sec/op',2.940000000000000121e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',294.0);
INSERT INTO samples VALUES(66,3,37,0,0,'old.txt','old.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(67,3,38,0,0,'old.txt','old.txt','B1-8','sec/op',3.1200000000000004095e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',312.0);
INSERT INTO samples VALUES(68,3,39,0,0,'old.txt','old.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(69,3,40,0,0,'old.txt','old.txt','B1-8','sec/op',3.130000000000000102e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',313.0);
INSERT INTO samples VALUES(70,3,41,0,0,'old.txt','old.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(71,3,42,0,0,'old.txt','old.txt','B1-8','sec/op',3.0000000000000003937e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',300.0);
INSERT INTO samples VALUES(72,3,43,0,0,'old.txt','old.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(73,3,44,0,0,'old.txt','old.txt','B1-8','sec/op',3.0600000000000001369e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',306.0);
INSERT INTO samples VALUES(74,3,45,0,0,'old.txt','old.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(75,3,46,0,0,'old.txt','old.txt','B1-8','sec/op',2.9600000000000000355e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',296.0);
INSERT INTO samples VALUES(76,3,47,0,0,'old.txt','old.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(77,3,48,0,0,'old.txt','old.txt','A1-8','sec/op',1.5100000000000001539e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',151.0);
INSERT INTO samples VALUES(78,3,49,0,0,'old.txt','old.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(79,3,50,0,0,'old.txt','old.txt','A1-8','sec/op',1.5800000000000001191e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',158.0);
INSERT INTO samples VALUES(80,3,51,0,0,'old.txt','old.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(81,3,52,0,0,'old.txt','old.txt','A1-8','sec/op',1.4899999999999999748e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',149.0);
INSERT INTO samples VALUES(82,3,53,0,0,'old.txt','old.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(83,3,54,0,0,'old.txt','old.txt','A1-8','sec/op',1.4600000000000001032e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',146.0);
INSERT INTO samples VALUES(84,3,55,0,0,'old.txt','old.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(85,3,56,0,0,'old.txt','old.txt','A1-8','sec/op',1.5400000000000000255e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',154.0);
INSERT INTO samples VALUES(86,3,57,0,0,'old.txt','old.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(87,3,58,0,0,'old.txt','old.txt','A1-8','sec/op',1.5300000000000000684e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',153.0);
INSERT INTO samples VALUES(88,3,59,0,0,'old.txt','old.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(89,3,60,0,0,'old.txt','old.txt','A1-8','sec/op',1.5000000000000001968e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',150.0);
INSERT INTO samples VALUES(90,3,61,0,0,'old.txt','old.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(91,3,62,0,0,'old.txt','old.txt','A1-8','sec/op',1.4800000000000000177e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',148.0);
INSERT INTO samples VALUES(92,3,63,0,0,'old.txt','old.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(93,3,64,0,1,'new.txt','new.txt','A1-8','sec/op',1.0800000000000000093e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',108.0);
INSERT INTO samples VALUES(94,3,65,0,1,'new.txt','new.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(95,3,66,0,1,'new.txt','new.txt','A1-8','sec/op',1.1100000000000000132e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',111.0);
INSERT INTO samples VALUES(96,3,67,0,1,'new.txt','new.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(97,3,68,0,1,'new.txt','new.txt','A1-8','sec/op',1.0900000000000000989e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',109.0);
INSERT INTO samples VALUES(98,3,69,0,1,'new.txt','new.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(99,3,70,0,1,'new.txt','new.txt','A1-8','sec/op',1.0600000000000000949e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',106.0);
INSERT INTO samples VALUES(100,3,71,0,1,'new.txt','new.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(101,3,72,0,1,'new.txt','new.txt','A1-8','sec/op',1.100000000000000056e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',110.0);
INSERT INTO samples VALUES(102,3,73,0,1,'new.txt','new.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(103,3,74,0,1,'new.txt','new.txt','A1-8','sec/op',1.1100000000000000132e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',111.0);
INSERT INTO samples VALUES(104,3,75,0,1,'new.txt','new.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(105,3,76,0,1,'new.txt','new.txt','A1-8','sec/op',1.0600000000000000949e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',106.0);
INSERT INTO samples VALUES(106,3,77,0,1,'new.txt','new.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(107,3,78,0,1,'new.txt','new.txt','A1-8','sec/op',1.1300000000000000601e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',113.0);
INSERT INTO samples VALUES(108,3,79,0,1,'new.txt','new.txt','A1-8','B/op',14.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(109,3,80,0,1,'new.txt','new.txt','A2-8','sec/op',2.2300000000000002485e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',223.0);
INSERT INTO samples VALUES(110,3,81,0,1,'new.txt','new.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(111,3,82,0,1,'new.txt','new.txt','A2-8','sec/op',2.2900000000000002562e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',229.0);
INSERT INTO samples VALUES(112,3,83,0,1,'new.txt','new.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(113,3,84,0,1,'new.txt','new.txt','A2-8','sec/op',2.2200000000000000264e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',222.0);
INSERT INTO samples VALUES(114,3,85,0,1,'new.txt','new.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(115,3,86,0,1,'new.txt','new.txt','A2-8','sec/op',2.1800000000000001978e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',218.0);
INSERT INTO samples VALUES(116,3,87,0,1,'new.txt','new.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(117,3,88,0,1,'new.txt','new.txt','A2-8','sec/op',2.190000000000000155e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',219.0);
INSERT INTO samples VALUES(118,3,89,0,1,'new.txt','new.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(119,3,90,0,1,'new.txt','new.txt','A2-8','sec/op',2.1300000000000001471e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',213.0);
INSERT INTO samples VALUES(120,3,91,0,1,'new.txt','new.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(121,3,92,0,1,'new.txt','new.txt','A2-8','sec/op',2.2700000000000000773e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',227.0);
INSERT INTO samples VALUES(122,3,93,0,1,'new.txt','new.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(123,3,94,0,1,'new.txt','new.txt','A2-8','sec/op',2.1600000000000000187e-07,'ok',0,0,0,0,0,NULL,1,'ns/op',216.0);
INSERT INTO samples VALUES(124,3,95,0,1,'new.txt','new.txt','A2-8','B/op',28.0,'ok',0,0,0,0,0,NULL,1,NULL,NULL);
INSERT INTO samples VALUES(125,3,96,0,1,'new.txt','new.txt','B1-8','sec/op',3.2800000000000002543e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',328.0);
INSERT INTO samples VALUES(126,3,97,0,1,'new.txt','new.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(127,3,98,0,1,'new.txt','new.txt','B1-8','sec/op',3.2800000000000002543e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',328.0);
INSERT INTO samples VALUES(128,3,99,0,1,'new.txt','new.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(129,3,100,0,1,'new.txt','new.txt','B1-8','sec/op',3.2300000000000002034e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',323.0);
INSERT INTO samples VALUES(130,3,101,0,1,'new.txt','new.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(131,3,102,0,1,'new.txt','new.txt','B1-8','sec/op',3.240000000000000425e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',324.0);
INSERT INTO samples VALUES(132,3,103,0,1,'new.txt','new.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(133,3,104,0,1,'new.txt','new.txt','B1-8','sec/op',3.1500000000000000161e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',315.0);
INSERT INTO samples VALUES(134,3,105,0,1,'new.txt','new.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(135,3,106,0,1,'new.txt','new.txt','B1-8','sec/op',3.2199999999999999813e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',322.0);
INSERT INTO samples VALUES(136,3,107,0,1,'new.txt','new.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(137,3,108,0,1,'new.txt','new.txt','B1-8','sec/op',3.2500000000000001177e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',325.0);
INSERT INTO samples VALUES(138,3,109,0,1,'new.txt','new.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(139,3,110,0,1,'new.txt','new.txt','B1-8','sec/op',3.2500000000000001177e-07,'ok',0,0,0,0,0,NULL,2,'ns/op',325.0);
INSERT INTO samples VALUES(140,3,111,0,1,'new.txt','new.txt','B1-8','B/op',42.0,'ok',0,0,0,0,0,NULL,2,NULL,NULL);
INSERT INTO samples VALUES(141,3,112,0,1,'new.txt','new.txt','A1-8','sec/op',1.6200000000000002124e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',162.0);
INSERT INTO samples VALUES(142,3,113,0,1,'new.txt','new.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(143,3,114,0,1,'new.txt','new.txt','A1-8','sec/op',1.710000000000000092e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',171.0);
INSERT INTO samples VALUES(144,3,115,0,1,'new.txt','new.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(145,3,116,0,1,'new.txt','new.txt','A1-8','sec/op',1.6200000000000002124e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',162.0);
INSERT INTO samples VALUES(146,3,117,0,1,'new.txt','new.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(147,3,118,0,1,'new.txt','new.txt','A1-8','sec/op',1.6200000000000002124e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',162.0);
INSERT INTO samples VALUES(148,3,119,0,1,'new.txt','new.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(149,3,120,0,1,'new.txt','new.txt','A1-8','sec/op',1.6099999999999999906e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',161.0);
INSERT INTO samples VALUES(150,3,121,0,1,'new.txt','new.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(151,3,122,0,1,'new.txt','new.txt','A1-8','sec/op',1.6800000000000002203e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',168.0);
INSERT INTO samples VALUES(152,3,123,0,1,'new.txt','new.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(153,3,124,0,1,'new.txt','new.txt','A1-8','sec/op',1.6300000000000001696e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',163.0);
INSERT INTO samples VALUES(154,3,125,0,1,'new.txt','new.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(155,3,126,0,1,'new.txt','new.txt','A1-8','sec/op',1.6400000000000001271e-07,'ok',0,0,0,0,0,NULL,3,'ns/op',164.0);
INSERT INTO samples VALUES(156,3,127,0,1,'new.txt','new.txt','A1-8','B/op',21.0,'ok',0,0,0,0,0,NULL,3,NULL,NULL);
INSERT INTO samples VALUES(157,4,0,0,0,'old.txt','old.txt','Read-16','sec/op',1.2141000000000001156e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',12141.0);
INSERT INTO samples VALUES(158,4,1,0,0,'old.txt','old.txt','Read-16','B/s',8244000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',8.2439999999999997726);
INSERT INTO samples VALUES(159,4,2,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(160,4,3,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(161,4,4,0,0,'old.txt','old.txt','Read-16','sec/op',1.1884000000000000059e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',11884.0);
INSERT INTO samples VALUES(162,4,5,0,0,'old.txt','old.txt','Read-16','B/s',8196999.999999999069,'ok',0,0,0,0,0,NULL,4,'MB/s',8.1969999999999991757);
INSERT INTO samples VALUES(163,4,6,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(164,4,7,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(165,4,8,0,0,'old.txt','old.txt','Read-16','sec/op',1.1662000000000001168e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',11662.0);
INSERT INTO samples VALUES(166,4,9,0,0,'old.txt','old.txt','Read-16','B/s',8185000.000000000931,'ok',0,0,0,0,0,NULL,4,'MB/s',8.1850000000000004973);
INSERT INTO samples VALUES(167,4,10,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(168,4,11,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(169,4,12,0,0,'old.txt','old.txt','Read-16','sec/op',1.2314000000000001024e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',12314.0);
INSERT INTO samples VALUES(170,4,13,0,0,'old.txt','old.txt','Read-16','B/s',8348000.0000000009309,'ok',0,0,0,0,0,NULL,4,'MB/s',8.3480000000000007531);
INSERT INTO samples VALUES(171,4,14,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(172,4,15,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(173,4,16,0,0,'old.txt','old.txt','Read-16','sec/op',1.211500000000000005e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',12115.0);
INSERT INTO samples VALUES(174,4,17,0,0,'old.txt','old.txt','Read-16','B/s',8397000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',8.3970000000000002415);
INSERT INTO samples VALUES(175,4,18,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(176,4,19,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(177,4,20,0,0,'old.txt','old.txt','Read-16','sec/op',1.2124000000000001149e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',12124.0);
INSERT INTO samples VALUES(178,4,21,0,0,'old.txt','old.txt','Read-16','B/s',8073000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',8.0730000000000003979);
INSERT INTO samples VALUES(179,4,22,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(180,4,23,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(181,4,24,0,0,'old.txt','old.txt','Read-16','sec/op',1.204100000000000042e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',12041.0);
INSERT INTO samples VALUES(182,4,25,0,0,'old.txt','old.txt','Read-16','B/s',8368000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',8.3680000000000003268);
INSERT INTO samples VALUES(183,4,26,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(184,4,27,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(185,4,28,0,0,'old.txt','old.txt','Read-16','sec/op',1.2102000000000000343e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',12102.0);
INSERT INTO samples VALUES(186,4,29,0,0,'old.txt','old.txt','Read-16','B/s',8372999.9999999990684,'ok',0,0,0,0,0,NULL,4,'MB/s',8.372999999999999332);
INSERT INTO samples VALUES(187,4,30,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(188,4,31,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(189,4,32,0,0,'old.txt','old.txt','Read-16','sec/op',1.2047000000000000023e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',12047.0);
INSERT INTO samples VALUES(190,4,33,0,0,'old.txt','old.txt','Read-16','B/s',8564000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',8.5640000000000000568);
INSERT INTO samples VALUES(191,4,34,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(192,4,35,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(193,4,36,0,0,'old.txt','old.txt','Read-16','sec/op',1.1683000000000001476e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',11683.0);
INSERT INTO samples VALUES(194,4,37,0,0,'old.txt','old.txt','Read-16','B/s',8425000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',8.4250000000000007105);
INSERT INTO samples VALUES(195,4,38,0,0,'old.txt','old.txt','Read-16','B/op',1200.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(196,4,39,0,0,'old.txt','old.txt','Read-16','allocs/op',12.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(197,4,40,0,0,'old.txt','old.txt','Write-16','sec/op',1.7824000000000000785e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17824.0);
INSERT INTO samples VALUES(198,4,41,0,0,'old.txt','old.txt','Write-16','B/s',5458000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.4580000000000001847);
INSERT INTO samples VALUES(199,4,42,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(200,4,43,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(201,4,44,0,0,'old.txt','old.txt','Write-16','sec/op',1.7654999999999999524e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17655.0);
INSERT INTO samples VALUES(202,4,45,0,0,'old.txt','old.txt','Write-16','B/s',5585000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.5849999999999999644);
INSERT INTO samples VALUES(203,4,46,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(204,4,47,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(205,4,48,0,0,'old.txt','old.txt','Write-16','sec/op',1.783800000000000099e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17838.0);
INSERT INTO samples VALUES(206,4,49,0,0,'old.txt','old.txt','Write-16','B/s',5436000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.4359999999999999431);
INSERT INTO samples VALUES(207,4,50,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(208,4,51,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(209,4,52,0,0,'old.txt','old.txt','Write-16','sec/op',1.8188000000000002722e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',18188.0);
INSERT INTO samples VALUES(210,4,53,0,0,'old.txt','old.txt','Write-16','B/s',5460000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.4599999999999999644);
INSERT INTO samples VALUES(211,4,54,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(212,4,55,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(213,4,56,0,0,'old.txt','old.txt','Write-16','sec/op',1.8120000000000002694e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',18120.0);
INSERT INTO samples VALUES(214,4,57,0,0,'old.txt','old.txt','Write-16','B/s',5634000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.634000000000000341);
INSERT INTO samples VALUES(215,4,58,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(216,4,59,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(217,4,60,0,0,'old.txt','old.txt','Write-16','sec/op',1.7379999999999999615e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17380.0);
INSERT INTO samples VALUES(218,4,61,0,0,'old.txt','old.txt','Write-16','B/s',5491000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.4909999999999996589);
INSERT INTO samples VALUES(219,4,62,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(220,4,63,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(221,4,64,0,0,'old.txt','old.txt','Write-16','sec/op',1.8498000000000001447e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',18498.0);
INSERT INTO samples VALUES(222,4,65,0,0,'old.txt','old.txt','Write-16','B/s',5610000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.6100000000000003197);
INSERT INTO samples VALUES(223,4,66,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(224,4,67,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(225,4,68,0,0,'old.txt','old.txt','Write-16','sec/op',1.7911000000000001816e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17911.0);
INSERT INTO samples VALUES(226,4,69,0,0,'old.txt','old.txt','Write-16','B/s',5684000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.6840000000000001634);
INSERT INTO samples VALUES(227,4,70,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(228,4,71,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(229,4,72,0,0,'old.txt','old.txt','Write-16','sec/op',1.8001000000000002648e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',18001.0);
INSERT INTO samples VALUES(230,4,73,0,0,'old.txt','old.txt','Write-16','B/s',5452000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.4519999999999999573);
INSERT INTO samples VALUES(231,4,74,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(232,4,75,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(233,4,76,0,0,'old.txt','old.txt','Write-16','sec/op',1.7915000000000000422e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17915.0);
INSERT INTO samples VALUES(234,4,77,0,0,'old.txt','old.txt','Write-16','B/s',5640000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.6399999999999996802);
INSERT INTO samples VALUES(235,4,78,0,0,'old.txt','old.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(236,4,79,0,0,'old.txt','old.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(237,4,80,0,0,'old.txt','old.txt','Sync-16','sec/op',0.00025836000000000001325,'ok',0,0,0,0,0,NULL,4,'ns/op',258360.0);
INSERT INTO samples VALUES(238,4,81,0,0,'old.txt','old.txt','Sync-16','B/s',394200.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.39419999999999999484);
INSERT INTO samples VALUES(239,4,82,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(240,4,83,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(241,4,84,0,0,'old.txt','old.txt','Sync-16','sec/op',0.00025119900000000001862,'ok',0,0,0,0,0,NULL,4,'ns/op',251199.0);
INSERT INTO samples VALUES(242,4,85,0,0,'old.txt','old.txt','Sync-16','B/s',390400.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.39040000000000002478);
INSERT INTO samples VALUES(243,4,86,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(244,4,87,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(245,4,88,0,0,'old.txt','old.txt','Sync-16','sec/op',0.00025237000000000002486,'ok',0,0,0,0,0,NULL,4,'ns/op',252370.0);
INSERT INTO samples VALUES(246,4,89,0,0,'old.txt','old.txt','Sync-16','B/s',394800.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.39479999999999998427);
INSERT INTO samples VALUES(247,4,90,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(248,4,91,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(249,4,92,0,0,'old.txt','old.txt','Sync-16','sec/op',0.00024355500000000000846,'ok',0,0,0,0,0,NULL,4,'ns/op',243555.0);
INSERT INTO samples VALUES(250,4,93,0,0,'old.txt','old.txt','Sync-16','B/s',413000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.41299999999999997823);
INSERT INTO samples VALUES(251,4,94,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(252,4,95,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(253,4,96,0,0,'old.txt','old.txt','Sync-16','sec/op',0.00025124000000000001366,'ok',0,0,0,0,0,NULL,4,'ns/op',251240.0);
INSERT INTO samples VALUES(254,4,97,0,0,'old.txt','old.txt','Sync-16','B/s',401200.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.40120000000000000106);
INSERT INTO samples VALUES(255,4,98,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(256,4,99,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(257,4,100,0,0,'old.txt','old.txt','Sync-16','sec/op',0.00024771299999999999135,'ok',0,0,0,0,0,NULL,4,'ns/op',247713.0);
INSERT INTO samples VALUES(258,4,101,0,0,'old.txt','old.txt','Sync-16','B/s',393000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.39300000000000001598);
INSERT INTO samples VALUES(259,4,102,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(260,4,103,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(261,4,104,0,0,'old.txt','old.txt','Sync-16','sec/op',0.00025293400000000001472,'ok',0,0,0,0,0,NULL,4,'ns/op',252934.0);
INSERT INTO samples VALUES(262,4,105,0,0,'old.txt','old.txt','Sync-16','B/s',414000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.41399999999999997912);
INSERT INTO samples VALUES(263,4,106,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(264,4,107,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(265,4,108,0,0,'old.txt','old.txt','Sync-16','sec/op',0.00024762399999999999949,'ok',0,0,0,0,0,NULL,4,'ns/op',247624.0);
INSERT INTO samples VALUES(266,4,109,0,0,'old.txt','old.txt','Sync-16','B/s',404200.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.40420000000000000373);
INSERT INTO samples VALUES(267,4,110,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(268,4,111,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(269,4,112,0,0,'old.txt','old.txt','Sync-16','sec/op',0.0002580799999999999956,'ok',0,0,0,0,0,NULL,4,'ns/op',258080.0);
INSERT INTO samples VALUES(270,4,113,0,0,'old.txt','old.txt','Sync-16','B/s',396600.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.39660000000000000808);
INSERT INTO samples VALUES(271,4,114,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(272,4,115,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(273,4,116,0,0,'old.txt','old.txt','Sync-16','sec/op',0.00025909199999999999201,'ok',0,0,0,0,0,NULL,4,'ns/op',259092.0);
INSERT INTO samples VALUES(274,4,117,0,0,'old.txt','old.txt','Sync-16','B/s',395200.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.39519999999999999573);
INSERT INTO samples VALUES(275,4,118,0,0,'old.txt','old.txt','Sync-16','B/op',25000.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(276,4,119,0,0,'old.txt','old.txt','Sync-16','allocs/op',250.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(277,4,120,0,1,'new.txt','new.txt','Read-16','sec/op',1.0412000000000001277e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',10412.0);
INSERT INTO samples VALUES(278,4,121,0,1,'new.txt','new.txt','Read-16','B/s',8958000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',8.9580000000000001847);
INSERT INTO samples VALUES(279,4,122,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(280,4,123,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(281,4,124,0,1,'new.txt','new.txt','Read-16','sec/op',1.0635000000000000668e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',10635.0);
INSERT INTO samples VALUES(282,4,125,0,1,'new.txt','new.txt','Read-16','B/s',9315000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',9.3149999999999995026);
INSERT INTO samples VALUES(283,4,126,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(284,4,127,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(285,4,128,0,1,'new.txt','new.txt','Read-16','sec/op',1.051200000000000032e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',10512.0);
INSERT INTO samples VALUES(286,4,129,0,1,'new.txt','new.txt','Read-16','B/s',9599000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',9.5990000000000001989);
INSERT INTO samples VALUES(287,4,130,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(288,4,131,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(289,4,132,0,1,'new.txt','new.txt','Read-16','sec/op',1.0962999999999999898e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',10963.0);
INSERT INTO samples VALUES(290,4,133,0,1,'new.txt','new.txt','Read-16','B/s',9134000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',9.134000000000000341);
INSERT INTO samples VALUES(291,4,134,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(292,4,135,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(293,4,136,0,1,'new.txt','new.txt','Read-16','sec/op',1.0927000000000000581e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',10927.0);
INSERT INTO samples VALUES(294,4,137,0,1,'new.txt','new.txt','Read-16','B/s',9256000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',9.2560000000000002273);
INSERT INTO samples VALUES(295,4,138,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(296,4,139,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(297,4,140,0,1,'new.txt','new.txt','Read-16','sec/op',1.1079000000000000143e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',11079.0);
INSERT INTO samples VALUES(298,4,141,0,1,'new.txt','new.txt','Read-16','B/s',9111000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',9.1110000000000006536);
INSERT INTO samples VALUES(299,4,142,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(300,4,143,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(301,4,144,0,1,'new.txt','new.txt','Read-16','sec/op',1.0932000000000001382e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',10932.0);
INSERT INTO samples VALUES(302,4,145,0,1,'new.txt','new.txt','Read-16','B/s',9469000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',9.4689999999999994173);
INSERT INTO samples VALUES(303,4,146,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(304,4,147,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(305,4,148,0,1,'new.txt','new.txt','Read-16','sec/op',1.0959000000000001292e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',10959.0);
INSERT INTO samples VALUES(306,4,149,0,1,'new.txt','new.txt','Read-16','B/s',9305000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',9.3049999999999997157);
INSERT INTO samples VALUES(307,4,150,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(308,4,151,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(309,4,152,0,1,'new.txt','new.txt','Read-16','sec/op',1.0846000000000000849e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',10846.0);
INSERT INTO samples VALUES(310,4,153,0,1,'new.txt','new.txt','Read-16','B/s',8834000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',8.8339999999999996305);
INSERT INTO samples VALUES(311,4,154,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(312,4,155,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(313,4,156,0,1,'new.txt','new.txt','Read-16','sec/op',1.0571000000000000941e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',10571.0);
INSERT INTO samples VALUES(314,4,157,0,1,'new.txt','new.txt','Read-16','B/s',9442000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',9.4420000000000001705);
INSERT INTO samples VALUES(315,4,158,0,1,'new.txt','new.txt','Read-16','B/op',1080.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(316,4,159,0,1,'new.txt','new.txt','Read-16','allocs/op',11.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(317,4,160,0,1,'new.txt','new.txt','Write-16','sec/op',1.7563999999999999886e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17564.0);
INSERT INTO samples VALUES(318,4,161,0,1,'new.txt','new.txt','Write-16','B/s',5565000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.5650000000000003907);
INSERT INTO samples VALUES(319,4,162,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(320,4,163,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(321,4,164,0,1,'new.txt','new.txt','Write-16','sec/op',1.7862000000000002793e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17862.0);
INSERT INTO samples VALUES(322,4,165,0,1,'new.txt','new.txt','Write-16','B/s',5549000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.5490000000000003765);
INSERT INTO samples VALUES(323,4,166,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(324,4,167,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(325,4,168,0,1,'new.txt','new.txt','Write-16','sec/op',1.8592000000000000886e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',18592.0);
INSERT INTO samples VALUES(326,4,169,0,1,'new.txt','new.txt','Write-16','B/s',5500000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.5);
INSERT INTO samples VALUES(327,4,170,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(328,4,171,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(329,4,172,0,1,'new.txt','new.txt','Write-16','sec/op',1.7832000000000001386e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17832.0);
INSERT INTO samples VALUES(330,4,173,0,1,'new.txt','new.txt','Write-16','B/s',5568000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.5679999999999996163);
INSERT INTO samples VALUES(331,4,174,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(332,4,175,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(333,4,176,0,1,'new.txt','new.txt','Write-16','sec/op',1.791200000000000062e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17912.0);
INSERT INTO samples VALUES(334,4,177,0,1,'new.txt','new.txt','Write-16','B/s',5436000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.4359999999999999431);
INSERT INTO samples VALUES(335,4,178,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(336,4,179,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(337,4,180,0,1,'new.txt','new.txt','Write-16','sec/op',1.8513000000000000457e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',18513.0);
INSERT INTO samples VALUES(338,4,181,0,1,'new.txt','new.txt','Write-16','B/s',5592000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.5919999999999996376);
INSERT INTO samples VALUES(339,4,182,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(340,4,183,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(341,4,184,0,1,'new.txt','new.txt','Write-16','sec/op',1.8248000000000002147e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',18248.0);
INSERT INTO samples VALUES(342,4,185,0,1,'new.txt','new.txt','Write-16','B/s',5613000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.6130000000000004334);
INSERT INTO samples VALUES(343,4,186,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(344,4,187,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(345,4,188,0,1,'new.txt','new.txt','Write-16','sec/op',1.8225000000000002536e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',18225.0);
INSERT INTO samples VALUES(346,4,189,0,1,'new.txt','new.txt','Write-16','B/s',5501000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.5010000000000003339);
INSERT INTO samples VALUES(347,4,190,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(348,4,191,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(349,4,192,0,1,'new.txt','new.txt','Write-16','sec/op',1.7929999999999999432e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',17930.0);
INSERT INTO samples VALUES(350,4,193,0,1,'new.txt','new.txt','Write-16','B/s',5603000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.6029999999999997584);
INSERT INTO samples VALUES(351,4,194,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(352,4,195,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(353,4,196,0,1,'new.txt','new.txt','Write-16','sec/op',1.8133000000000000707e-05,'ok',0,0,0,0,0,NULL,4,'ns/op',18133.0);
INSERT INTO samples VALUES(354,4,197,0,1,'new.txt','new.txt','Write-16','B/s',5562000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',5.5620000000000002771);
INSERT INTO samples VALUES(355,4,198,0,1,'new.txt','new.txt','Write-16','B/op',1800.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(356,4,199,0,1,'new.txt','new.txt','Write-16','allocs/op',18.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(357,4,200,0,1,'new.txt','new.txt','Sync-16','sec/op',0.00032322200000000001667,'ok',0,0,0,0,0,NULL,4,'ns/op',323222.0);
INSERT INTO samples VALUES(358,4,201,0,1,'new.txt','new.txt','Sync-16','B/s',309500.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.30949999999999999733);
INSERT INTO samples VALUES(359,4,202,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(360,4,203,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(361,4,204,0,1,'new.txt','new.txt','Sync-16','sec/op',0.00033304500000000002071,'ok',0,0,0,0,0,NULL,4,'ns/op',333045.0);
INSERT INTO samples VALUES(362,4,205,0,1,'new.txt','new.txt','Sync-16','B/s',306200.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.30620000000000002771);
INSERT INTO samples VALUES(363,4,206,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(364,4,207,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(365,4,208,0,1,'new.txt','new.txt','Sync-16','sec/op',0.00031885300000000001835,'ok',0,0,0,0,0,NULL,4,'ns/op',318853.0);
INSERT INTO samples VALUES(366,4,209,0,1,'new.txt','new.txt','Sync-16','B/s',307000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.30699999999999999511);
INSERT INTO samples VALUES(367,4,210,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(368,4,211,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(369,4,212,0,1,'new.txt','new.txt','Sync-16','sec/op',0.00032647099999999999861,'ok',0,0,0,0,0,NULL,4,'ns/op',326471.0);
INSERT INTO samples VALUES(370,4,213,0,1,'new.txt','new.txt','Sync-16','B/s',310100.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.31009999999999998676);
INSERT INTO samples VALUES(371,4,214,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(372,4,215,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(373,4,216,0,1,'new.txt','new.txt','Sync-16','sec/op',0.00032470400000000004077,'ok',0,0,0,0,0,NULL,4,'ns/op',324704.0);
INSERT INTO samples VALUES(374,4,217,0,1,'new.txt','new.txt','Sync-16','B/s',315900.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.31590000000000001412);
INSERT INTO samples VALUES(375,4,218,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(376,4,219,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(377,4,220,0,1,'new.txt','new.txt','Sync-16','sec/op',0.00032685500000000002746,'ok',0,0,0,0,0,NULL,4,'ns/op',326855.0);
INSERT INTO samples VALUES(378,4,221,0,1,'new.txt','new.txt','Sync-16','B/s',313100.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.31309999999999998943);
INSERT INTO samples VALUES(379,4,222,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(380,4,223,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(381,4,224,0,1,'new.txt','new.txt','Sync-16','sec/op',0.0003211330000000000304,'ok',0,0,0,0,0,NULL,4,'ns/op',321133.0);
INSERT INTO samples VALUES(382,4,225,0,1,'new.txt','new.txt','Sync-16','B/s',309800.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.3098000000000000198);
INSERT INTO samples VALUES(383,4,226,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(384,4,227,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(385,4,228,0,1,'new.txt','new.txt','Sync-16','sec/op',0.00032204600000000004013,'ok',0,0,0,0,0,NULL,4,'ns/op',322046.0);
INSERT INTO samples VALUES(386,4,229,0,1,'new.txt','new.txt','Sync-16','B/s',296100.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.29609999999999997433);
INSERT INTO samples VALUES(387,4,230,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(388,4,231,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(389,4,232,0,1,'new.txt','new.txt','Sync-16','sec/op',0.00031743600000000004191,'ok',0,0,0,0,0,NULL,4,'ns/op',317436.0);
INSERT INTO samples VALUES(390,4,233,0,1,'new.txt','new.txt','Sync-16','B/s',299000.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.298999999999999988);
INSERT INTO samples VALUES(391,4,234,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(392,4,235,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(393,4,236,0,1,'new.txt','new.txt','Sync-16','sec/op',0.00032632100000000002206,'ok',0,0,0,0,0,NULL,4,'ns/op',326321.0);
INSERT INTO samples VALUES(394,4,237,0,1,'new.txt','new.txt','Sync-16','B/s',310900.0,'ok',0,0,0,0,0,NULL,4,'MB/s',0.31090000000000000968);
INSERT INTO samples VALUES(395,4,238,0,1,'new.txt','new.txt','Sync-16','B/op',32500.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(396,4,239,0,1,'new.txt','new.txt','Sync-16','allocs/op',325.0,'ok',0,0,0,0,0,NULL,4,NULL,NULL);
INSERT INTO samples VALUES(397,5,0,0,0,'before.txt','before.txt','Size','text-bytes',100.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(398,5,1,0,0,'before.txt','before.txt','Size','data-bytes',4096.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(399,5,2,0,0,'before.txt','before.txt','Other','text-bytes',5000.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(400,5,3,0,0,'before.txt','before.txt','Other','data-bytes',100.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(401,5,4,0,0,'before.txt','before.txt','NonExact','text-bytes',100.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(402,5,5,0,0,'before.txt','before.txt','NonExact','text-bytes',101.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(403,5,6,0,0,'before.txt','before.txt','NonExact','text-bytes',101.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(404,5,7,0,1,'after.txt','after.txt','Size','text-bytes',105.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(405,5,8,0,1,'after.txt','after.txt','Size','data-bytes',4096.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(406,5,9,0,1,'after.txt','after.txt','Other','text-bytes',4000.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(407,5,10,0,1,'after.txt','after.txt','Other','data-bytes',120.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(408,5,11,0,1,'after.txt','after.txt','NonExact','text-bytes',101.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(409,5,12,0,1,'after.txt','after.txt','NonExact','text-bytes',101.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
INSERT INTO samples VALUES(410,5,13,0,1,'after.txt','after.txt','NonExact','text-bytes',101.0,'ok',0,0,0,0,0,NULL,5,NULL,NULL);
CREATE TABLE journal (
	id INTEGER PRIMARY KEY,
	run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	kind TEXT NOT NULL,
	name TEXT NOT NULL DEFAULT '',
	target TEXT NOT NULL DEFAULT '',
	original TEXT,
	applied TEXT,
	state TEXT NOT NULL
);
INSERT INTO journal VALUES(1,1,0,'dir','dir','/tmp/abbench-d70ca7af-32d2-4f8d-9bf2-0fa8e0e939ae',NULL,NULL,'restored');
INSERT INTO journal VALUES(2,1,1,'cgroup','cgroup','abbench-d70ca7af',replace('/\n/process_api/29d5ea9fb53dd31e21c32dab5bb6239e\n','\n',char(10)),NULL,'restored');
INSERT INTO journal VALUES(3,2,2,'dir','dir','/tmp/abbench-c911e2f8-1eb1-4140-baa7-c51d82ca3d09',NULL,NULL,'restored');
INSERT INTO journal VALUES(4,2,3,'cgroup','cgroup','abbench-c911e2f8',replace('/\n/process_api/29d5ea9fb53dd31e21c32dab5bb6239e\n','\n',char(10)),NULL,'restored');
CREATE TABLE warnings (
	run_id INTEGER NOT NULL
	    REFERENCES runs(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	text TEXT NOT NULL,
	PRIMARY KEY (run_id, seq)
);
INSERT INTO warnings VALUES(1,0,'load average 15.15 is above half of the 2 vCPUs: something else is running');
INSERT INTO warnings VALUES(2,0,'load average 15.15 is above half of the 2 vCPUs: something else is running');
CREATE TABLE calibrations (
	run_id INTEGER PRIMARY KEY
	    REFERENCES runs(id) ON DELETE CASCADE,
	experiment TEXT NOT NULL,
	host_class TEXT NOT NULL,
	repeats INTEGER NOT NULL,
	rounds INTEGER NOT NULL,
	alpha REAL NOT NULL
);
CREATE TABLE calibration_rows (
	run_id INTEGER NOT NULL
	    REFERENCES calibrations(run_id) ON DELETE CASCADE,
	benchmark TEXT NOT NULL,
	unit TEXT NOT NULL,
	n INTEGER NOT NULL,
	median REAL,
	mad_rel REAL,
	ci_rel REAL,
	mde REAL,
	comparisons INTEGER NOT NULL,
	flagged INTEGER NOT NULL,
	PRIMARY KEY (run_id, benchmark, unit)
);
CREATE TABLE fleets (
	id TEXT PRIMARY KEY,
	created_wall_ns INTEGER NOT NULL,
	dir TEXT NOT NULL,
	experiment_path TEXT NOT NULL,
	experiment_name TEXT NOT NULL,
	scheduler TEXT NOT NULL,
	abbench_path TEXT NOT NULL,
	abbench_version TEXT NOT NULL,
	time_limit TEXT,
	merge_job TEXT
, run_keys TEXT);
CREATE TABLE fleet_args (
	fleet_id TEXT NOT NULL REFERENCES fleets(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	arg TEXT NOT NULL,
	PRIMARY KEY (fleet_id, seq)
);
CREATE TABLE fleet_jobs (
	fleet_id TEXT NOT NULL REFERENCES fleets(id) ON DELETE CASCADE,
	partition TEXT NOT NULL,
	replica INTEGER NOT NULL,
	attempt INTEGER NOT NULL,
	job_id TEXT NOT NULL,
	db TEXT NOT NULL,
	state TEXT NOT NULL DEFAULT 'SUBMITTED',
	reason TEXT NOT NULL DEFAULT '',
	node TEXT NOT NULL DEFAULT '',
	updated_wall_ns INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (fleet_id, partition, replica, attempt)
);
CREATE TABLE decisions (
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	workload TEXT NOT NULL,
	look INTEGER NOT NULL,
	good_rounds INTEGER NOT NULL,
	round INTEGER NOT NULL,
	benchmark TEXT NOT NULL,
	unit TEXT NOT NULL,
	arm TEXT NOT NULL,
	base_arm TEXT NOT NULL,
	verdict TEXT NOT NULL,
	p REAL,
	boundary REAL,
	n1 INTEGER NOT NULL,
	n2 INTEGER NOT NULL,
	mde REAL, test TEXT, p_u REAL,
	PRIMARY KEY (run_id, workload, look, benchmark, unit, arm)
);
CREATE INDEX runs_name ON runs(name, started_wall_ns);
CREATE INDEX samples_run ON samples(run_id, plan_idx);
CREATE INDEX journal_run ON journal(run_id);
CREATE INDEX calibrations_key ON calibrations(experiment, host_class);
COMMIT;
