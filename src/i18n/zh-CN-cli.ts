/**
 * @module i18n/zh-CN-cli
 * The Simplified Chinese messages of the `zhujiu` command line (i18n/en-cli.ts has the keys and their grouping;
 * i18n/zh-CN.ts spreads these in). Command names, flags, file names and JSON shapes stay as they are typed.
 */
import type { enCli } from './en-cli.ts';

export const zhCNCli: Readonly<Record<keyof typeof enCli, string>> = {
  'cli.description': '煮酒竞技场：用指标、LLM 评审和众包聊天竞技场评测大语言模型',
  'cli.opt.version': '显示 zhujiu 的版本号并退出',
  'cli.opt.help': '显示命令帮助',
  'cli.helpCommand': '显示命令帮助',
  'cli.helpCommand.arg': '要显示帮助的命令，有子命令时再加上子命令',
  'cli.help.usage': '用法：',
  'cli.help.arguments': '参数：',
  'cli.help.options': '选项：',
  'cli.help.globalOptions': '全局选项：',
  'cli.help.commands': '命令：',
  'cli.help.choices': '可选值：{choices}',
  'cli.help.default': '默认值：{value}',
  'cli.help.extra': '（{items}）',
  'cli.help.sep': '；',
  'cli.help.optionsPlaceholder': '[选项]',
  'cli.help.commandPlaceholder': '[命令]',
  'cli.help.described': '{description}{extra}',

  'cli.usage.error': '错误：{message}',
  'cli.usage.seeHelp': '（加上 --help 查看用法）',
  'cli.usage.unknownOption': '未知选项“{flag}”',
  'cli.usage.unknownCommand': '未知命令“{command}”',
  'cli.usage.missingArgument': '缺少必需的参数“{arg}”',
  'cli.usage.optionValueMissing': '选项“{flag}”缺少参数值',
  'cli.usage.requiredOption': '未指定必需的选项“{flag}”',
  'cli.usage.tooManyArguments': '参数过多：应为 {expected} 个，实际为 {got} 个：{args}。',
  'cli.usage.tooManyArgumentsFor':
    '“{command}”的参数过多：应为 {expected} 个，实际为 {got} 个：{args}。',
  'cli.usage.invalidOptionValue': '选项“{flag}”的值“{value}”无效。{why}',
  'cli.usage.invalidArgument': '参数“{arg}”的值“{value}”无效。{why}',
  'cli.usage.allowedChoices': '可选值为 {choices}。',
  'cli.usage.didYouMean': '（你是不是想输入 {names}？）',
  'cli.usage.didYouMeanOneOf': '（你是不是想输入以下之一：{names}？）',
  'cli.usage.intTooLarge': '{flag} 不能超过 {max}，收到的是“{value}”',
  'cli.usage.int': '{flag} 必须是不小于 {min} 的整数，只用十进制数字书写，收到的是“{value}”',
  'cli.usage.since':
    '--since 必须是日期，例如 2026-11-30 或 2026-11-30T12:00:00Z（未给出时区偏移时按 UTC），收到的是“{value}”',
  'cli.usage.source': '--source “{value}”：只能用 1–64 个字母、数字和 . _ : @ -',
  'cli.error.coded': '错误 [{code}]：{message}',
  'cli.error.unexpected': '意外错误：{stack}',
  'cli.unhandled.rejection':
    '错误 [unhandled_rejection]：{message}（一个没有任何代码等待的操作失败了；命令已停止）',
  'cli.unhandled.fatal': '致命错误：{what}；现在退出，以便进程管理器重启 zhujiu',
  'cli.unhandled.uncaught': '未捕获的异常：{message}',
  'cli.unhandled.dbStopped': '嵌入式数据库已停止：{message}',
  'cli.install.broken':
    'zhujiu 的安装不完整：无法加载 {what}。请在 zhujiu 目录中运行 `npm run build`（或运行 `npm ci`，它还会重新安装依赖），然后再次运行命令。',
  'cli.results.needsRun': '--dataset、--ability、--failed、--out 和 --bom 需要与 --run N 一起使用',
  'cli.eval.cancelFlags': '--cancel RUN 不能与 --model 或 --suite 一起使用',
  'cli.ratings.sourceWithFile':
    '--source 选择的是已存储的投票；用 --battles FILE 时按文件原样计算评分：请去掉其中一个',
  'cli.results.bomNeedsCsv':
    '--bom 只用于 CSV（--format csv）：JSON Lines 以第一条记录开头；请去掉 --bom 或加上 --format csv',

  'cli.bot.description':
    '运行聊天机器人（Discord / Slack / 终端），并在进程内运行 worker；`npm start` 的默认命令',
  'cli.bot.opt.no-worker': '不在进程内运行 worker',
  'cli.worker.description':
    '执行排队中的评测任务并结束到期的对战（发帖需要聊天连接：由机器人发帖）；可对同一个 DATABASE_URL 启动多个',
  'cli.db.inUse':
    '{dir} 中的嵌入式数据库正被另一个 zhujiu 进程使用（{owner}）。嵌入式数据库只能由一个进程使用：请先停止那个进程（例如在 `zhujiu import` 之前停止机器人），或使用另一个 ZHUJIU_DATA_DIR，或设置 DATABASE_URL 让多个进程共用一个 Postgres。（锁文件是 {lock}；那个进程停止时会释放，进程死亡 {secs} 秒后会被接管。）',
  'cli.db.owner': '进程 {pid}{host}{since}',
  'cli.db.ownerHost': '，主机 {host}',
  'cli.db.ownerSince': '，自 {since} 起',
  'cli.db.ownerUnknown': '未知进程',
  'cli.db.openHere': '{dir} 中的嵌入式数据库已在本进程中打开；请先关闭它',
  'cli.db.otherMajor':
    '{dir} 中的嵌入式数据库由 PostgreSQL {made} 创建（旧版 zhujiu，PGlite 0.4），而这个 zhujiu 运行的是 PostgreSQL {major}，无法打开它。请运行 `zhujiu migrate --upgrade-data-dir`，把其中的全部内容复制到原位置的新目录（旧目录保留在旁边作为备份）；或者把 ZHUJIU_DATA_DIR 设为一个新目录（或把 DATABASE_URL 设为一个 Postgres 服务器）从头开始。',
  'cli.db.foreignFolder':
    '嵌入式数据库目录 {dir} 中有 {n} 项（{first}{n, plural, =1 {} other {等}}），但不是数据库（没有 PG_VERSION 文件）：zhujiu 会把数据库写在它们中间。请把 ZHUJIU_DATA_DIR 设为一个新的或空的目录，或一个已有的 zhujiu 数据目录；或者把这些文件移走；或者把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.isFile':
    '嵌入式数据库目录 {dir} 是文件，不是目录。请把 ZHUJIU_DATA_DIR 设为一个目录（不存在时会自动创建），或把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.cannotUse': '无法把 {dir} 用作嵌入式数据库目录：{why}。{fix}',
  'cli.db.why.noWrite':
    '无法在 {path} 中写入（{cause}），锁和新解包的数据库要放在那里，即数据目录旁边',
  'cli.db.why.noWriteAbove': '无法在 {path} 中写入（{cause}），{dir} 缺少的各级目录要在那里创建',
  'cli.db.why.noNewFolders': '{path} 中不能新建目录（{cause}），/proc、/sys 等系统目录都是这样',
  'cli.db.why.fileInPath': '{path} 是文件，不是目录（{cause}）',
  'cli.db.why.diskFull': '{path} 所在的磁盘已满（{cause}）',
  'cli.db.why.other': '{path}：{cause}',
  'cli.db.fix.writable':
    '请让当前用户可以写入 {path}，或把 ZHUJIU_DATA_DIR 设为可写的目录，或把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.fix.elsewhere':
    '请把 ZHUJIU_DATA_DIR 设为可写的目录，或把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.fix.space':
    '请释放一些空间，或把 ZHUJIU_DATA_DIR 设为另一块磁盘上的目录，或把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.unreadable':
    '无法读取嵌入式数据库目录 {dir}（{cause}）。请让当前用户可以读写它（它可能属于另一个用户：用 chown 或 chmod 修改），或把 ZHUJIU_DATA_DIR 设为其他目录，或把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.unwritable':
    '无法写入嵌入式数据库目录 {dir}（{cause}）。请让当前用户可以写入它（它可能属于另一个用户：用 chown 或 chmod 修改），或把 ZHUJIU_DATA_DIR 设为其他目录，或把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.noPostgres':
    '无法连接 PostgreSQL 数据库 {where}：{detail}。请检查 DATABASE_URL，或取消设置它以使用嵌入式数据库。',
  'cli.db.danglingLink':
    '嵌入式数据库目录 {dir} 是指向 {to} 的链接，而该目录不存在。请创建该目录，或把 ZHUJIU_DATA_DIR 设为一个目录（或指向目录的链接），或把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.diskFull':
    '嵌入式数据库 {dir} 所在的磁盘已满（{detail}），无法再写入。请释放一些空间后再次运行同一命令，或把 ZHUJIU_DATA_DIR 设为另一块磁盘上的目录，或把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.cannotOpen':
    '无法打开 {dir} 中的嵌入式数据库：{detail}。请把 ZHUJIU_DATA_DIR 设为其他目录，或把损坏的目录移走，或把 DATABASE_URL 设为 PostgreSQL 服务器。',
  'cli.db.pglite': '嵌入式数据库（PGlite）{dir}',
  'cli.db.postgres': 'PostgreSQL 数据库 {where}',
  'cli.db.newer':
    '这个数据库已由更新版本的 zhujiu 迁移（它有 {n} 个未知的迁移 {unknown}；这个 zhujiu 只认识到 {known}）；请升级 zhujiu，或让 DATABASE_URL / ZHUJIU_DATA_DIR 指向另一个数据库。',
  'cli.db.noMigration': '无',
  'cli.db.migrationFailed': '迁移 {name} 失败：{detail}',
  'cli.db.migrationUnknown': '（名称未知）',
  'cli.modelName.flag': '{flag} “{name}”{problem}',
  'cli.modelName.empty': '为空；请给模型起个名称',
  'cli.modelName.tooLong': '长 {n} 个字符，超过了 {max}；请用更短的名称',
  'cli.modelName.blank': '只有空白；请给模型起个名称',
  'cli.modelName.unprintable': '含有 {char}，这是控制、格式或换行字符；请只用可打印的文字',
  'cli.modelName.outerSpace': '首尾有空格；请删除',
  'cli.schema.emojiTaken': '“{emoji}”已经是 {choice} 的表情：每个选项需要各自的表情',
  'cli.schema.absoluteUrl': '必须是绝对的 {first} 或 {second} URL（或 null，使用平台自己的地址）',
  'cli.schema.httpUrl': '应为 http:// 或 https:// URL，例如 {example}，实际是“{got}”',
  'cli.schema.locale': 'locale：请使用 {locales} 之一（例如 locale: zh-CN）',
  'cli.schema.envVarName': '必须是环境变量名（大写字母、数字和 _），例如 OPENAI_API_KEY',
  'cli.schema.sha256': '必须是文件的 SHA-256，即 64 个小写十六进制数字（`sha256sum FILE`）',
  'cli.schema.rubricName': '必须是 config/rubrics/ 中的评分标准名称，例如 ten_point',
  'cli.schema.suiteName': '只能用小写字母、数字、.、_ 和 -',
  'cli.schema.regex': '不是有效的正则表达式',
  'cli.schema.sourceName': '应为来源名称，即 `import battles --source` 所给的名称',
  'cli.schema.sourceArena': '`arena`（机器人自己的投票）总会计入；这里只列出导入的来源',
  'cli.schema.cron': '不是有效的 cron 表达式（例如 `0 9 * * *`）',
  'cli.schema.timezone': '不是 IANA 时区（例如 `Asia/Shanghai`）',
  'cli.schema.baseLoader': '基础数据集需要一种文件格式，不能是 robustness',
  'cli.schema.pathOrFiles': '请给出 `path:` 或 `files:`（相对于数据集目录 ZHUJIU_DATASETS_DIR）',
  'cli.schema.metricsLoader': '指标评估数据集需要 `loader:`（它的文件格式）',
  'cli.schema.scoringRubric':
    '打分评估数据集需要 `rubric:`（ten_point 或 industry_0_3，见 config/rubrics/）',
  'cli.schema.robustnessTask':
    '鲁棒性数据集需要 `task:`（{tasks} 之一）和 `base:`（它所派生自的数据集）',
  'cli.schema.robustnessFiles':
    '鲁棒性数据集读取其基础数据集的文件：请在 `base:` 下给出 `path`、`files`、`prompts`、`shots` 和 `profile`',
  'cli.schema.robustnessOnly': '`task:` 和 `base:` 只用于 `loader: robustness`',
  'cli.schema.description': '请至少用一种语言给出简介：`en:` 或 `zh-CN:`',
  'cli.schema.suiteDatasets':
    '评测套件需要 `datasets:`（自己的数据集）或 `include:`（其他评测套件的名称），或两者都有',
  'cli.schema.uniqueDatasets': '同一评测套件中的数据集名称必须唯一',
  'cli.schema.env.databaseUrl': '必须是 postgres:// 或 postgresql:// 开头的 URL',
  'cli.schema.env.voterSecret': '至少需要 16 个字符（例如 `openssl rand -hex 32`）',
  'cli.schema.env.port': '应为 0 到 65535 之间的端口号，例如 8080',
  'cli.schema.env.portWhole': '应为 0 到 65535 之间的整数端口号，例如 8080',
  'cli.schema.env.problem': '环境变量 {name}：{msg}',
  'cli.schema.datasetName.empty': '为空；请给数据集起个名字',
  'cli.schema.datasetName.tooLong': '超过 {max} 个字符；请用更短的名字',
  'cli.schema.datasetName.invalid':
    '不是有效的名称：只能用字母、数字和 . _ : @ + -，并以字母或数字开头（不能有空格或 /）',
  'cli.schema.rubric.name': '只能用小写字母、数字和 _，例如 ten_point',
  'cli.schema.rubric.maxAboveMin': 'max 必须大于 min',
  'cli.schema.rubric.wholeScale':
    '整数分制（fractional: false）的 min 和 max 须为整数；要给 7.5 这样的分数，请设 fractional: true',
  'cli.schema.env.oneOf': '应为 {choices} 之一',
  'cli.migrate.description': '执行待应用的数据库迁移（每次启动时也会执行）',
  'cli.migrate.opt.down': '改为回滚最近一次迁移（删除它创建的内容：对 0001 即所有表）',
  'cli.migrate.opt.yes': '确认 --down',
  'cli.migrate.opt.upgrade-data-dir':
    '把旧版 zhujiu 创建的嵌入式数据库目录（PostgreSQL 17）复制为原位置上的 PostgreSQL 18 目录，旧目录保留在旁边作为备份',
  'cli.eval.description':
    '在前台对一个模型运行评测套件（进度输出到 stderr，摘要输出到 stdout）；`zhujiu eval --cancel RUN` 取消一个评测任务',
  'cli.eval.opt.model': '模型（config/models.yaml 中的，或已导入回答的）',
  'cli.eval.opt.suite': '评测套件（config/suites/*.yaml；`zhujiu suites` 列出全部）',
  'cli.eval.opt.limit': '每个数据集最多提问 N 题',
  'cli.eval.opt.json': '输出 {shape}',
  'cli.eval.opt.cancel': '改为取消评测任务 RUN（在其他进程中运行的评测任务会在下一次心跳时停止）',
  'cli.config.description': '配置工具',
  'cli.config.check.description':
    '按 `bot` 和 `worker` 启动时完全相同的方式校验 config/default.yaml、config/models.yaml、config/suites/*.yaml 和环境变量，然后尝试连接数据库（Postgres）或检查 PGlite 数据目录未被其他 zhujiu 进程占用，并对每个模型端点请求一次 GET /models',
  'cli.config.check.opt.no-connect': '跳过连接检查（数据库 / 数据目录锁、模型端点）',
  'cli.config.check.opt.no-endpoints': '不向各模型端点请求 GET /models',
  'cli.import.description': '导入已记录的模型输出、公开的竞技场投票或已记录的评审结果',
  'cli.import.outputs.description':
    '把已记录的模型输出存为回答（AlpacaEval 的 model_outputs.json、JSONL {shape}，或 GAOKAO-Bench 结果目录）',
  'cli.import.outputs.arg.file': '输出文件（--format gaokao 时为结果目录，每个关键词一个 JSON）',
  'cli.import.outputs.opt.model': '产生这些输出的模型',
  'cli.import.outputs.opt.format': '文件格式',
  'cli.import.outputs.opt.dataset': '题目归入的数据集（默认：alpaca_eval；jsonl 格式时为文件名）',
  'cli.import.outputs.opt.ability': '题目的能力维度',
  'cli.import.battles.description': '把公开的竞技场投票（JSONL {shape}）存为已结束的对战，每场一票',
  'cli.import.battles.arg.file': '对战 JSONL 文件',
  'cli.import.battles.opt.source': '导入对战的来源标签（默认：文件名）',
  'cli.import.battles.opt.ability': '对战的能力维度',
  'cli.import.judgments.description':
    '把公开的评审输出存为评审分数（GAOKAO-Bench 主观题评审文件、--format gaokao-human 时为 GAOKAO-Bench 教师评分、AlpacaEval 标注）；被评审的回答无需先导入',
  'cli.import.judgments.arg.path': '一个文件，或包含这类文件的目录',
  'cli.import.judgments.opt.format': '文件格式',
  'cli.import.judgments.opt.judge': '评审模型，随每个分数一起存储（例如 gpt-4-1106-preview）',
  'cli.judge.description': '打分评估：评审报告与评分者之间的一致性',
  'cli.judge.agree.description':
    "同一批题目上两组标签的一致性（JSONL {shape}，按 item 对齐）：Cohen's kappa（无权重、线性、二次）、完全一致率、相差不超过一的一致率、混淆矩阵",
  'cli.judge.agree.arg.a': '评分者 A 的标签（混淆矩阵的行）',
  'cli.judge.agree.arg.b': '评分者 B 的标签',
  'cli.judge.agree.opt.json': '输出 {shape}',
  'cli.judge.agree.opt.order':
    '加权 kappa 的类别顺序，从低到高，用逗号分隔（例如 1,0,2）；不指定时数字按数值排序',
  'cli.judge.run.description':
    '用评分细则评审一个模型在评测套件打分数据集上已存储的回答（按需进行安全违规检查）；已评审的题目会跳过，评审失败会重试',
  'cli.judge.run.opt.model': '被评审的模型（其回答必须已存储：先运行评测或导入输出）',
  'cli.judge.run.opt.suite': '评测套件，例如 zhujiu-scoring',
  'cli.judge.run.opt.judge': '评审模型：config/models.yaml 中的一个模型',
  'cli.judge.run.opt.attempts': '每道题的尝试次数，用尽后记为评审失败',
  'cli.judge.export.description':
    '把一个评审模型自己的单回答评分导出为 `judge agree` 读取的标签：每道已评分的题目一行 {shape}',
  'cli.judge.export.opt.judge': '要导出其评分的评审模型',
  'cli.judge.export.opt.model': '只导出这个被评审模型的评分',
  'cli.judge.export.opt.dataset': '只导出这个数据集',
  'cli.judge.export.opt.out': '写入文件 FILE（原子写入），而不是标准输出',
  'cli.judge.report.description':
    '一个模型的评审分数：对每个基线模型的胜率（按 AlpacaEval 的定义）和各数据集的评审得分',
  'cli.judge.report.opt.model': '被评审的模型',
  'cli.judge.report.opt.baseline': '只看与这个基线模型的成对评审',
  'cli.judge.report.opt.judge': '只看这个评审模型',
  'cli.judge.report.opt.json': '输出 {shape}',
  'cli.suites.description':
    '列出评测套件（config/suites/*.yaml）及其数据集和题目数，题目从数据集目录（ZHUJIU_DATASETS_DIR）读取',
  'cli.suites.opt.json': '输出 {shape}，而不是表格',
  'cli.datasets.description': '自建数据集',
  'cli.datasets.build.description':
    '从已安装的 npm 数据包确定性地构建自建数据集（煮酒知识集），写入数据集目录的 zhujiu-built/，并附 manifest.json',
  'cli.datasets.build.opt.out': '输出目录（默认：<数据集目录>/zhujiu-built）',
  'cli.datasets.build.opt.json': '以 JSON 输出清单（{shape}）',
  'cli.submissions.description': '在聊天中用 /submit 提交的模型：列出、批准、拒绝（维护者）',
  'cli.submissions.list.description': '列出提交，最新的在前（最多 200 条）',
  'cli.submissions.list.opt.status': '只列出这个状态的提交',
  'cli.submissions.list.opt.json': '输出 {shape}',
  'cli.submissions.approve.description':
    '把提交 ID 注册为模型并创建它的评测任务（submissions.suites）；正在运行的机器人或 worker 会接手',
  'cli.submissions.approve.arg.id': '提交编号',
  'cli.submissions.approve.opt.api-key-env':
    '存放其 API 密钥的环境变量（在这里和执行评测任务的地方都要设置）',
  'cli.submissions.approve.opt.suite': '排队这个评测套件，而不是 submissions.suites（可重复）',
  'cli.submissions.approve.opt.json': '输出 {shape}',
  'cli.submissions.reject.description': '拒绝提交 ID；提交者会收到拒绝理由',
  'cli.submissions.reject.arg.id': '提交编号',
  'cli.submissions.reject.opt.reason': '理由（会告知提交者）',
  'cli.submissions.reject.opt.json': '输出 {shape}',
  'cli.ratings.description':
    'Bradley–Terry 评分（带 bootstrap 置信区间）和在线 Elo，数据来自文件或已存储的投票',
  'cli.ratings.opt.battles': '{shape} 的 JSONL 或成对计数；默认：数据库中的投票',
  'cli.ratings.opt.bootstrap':
    'bootstrap 轮数（0 = 不做；默认：对已存储投票用配置的 ratings.bootstrap，对文件用 1000）',
  'cli.ratings.opt.seed':
    'bootstrap 随机种子（默认：对已存储投票用配置的 ratings.seed，对文件用 0）',
  'cli.ratings.opt.anchor':
    '平移评分，使 MODEL 的评分为 RATING，例如 mixtral-8x7b-instruct-v0.1=1114（默认：对已存储投票用配置的 ratings.anchor）',
  'cli.ratings.opt.json': '输出 {shape}，而不是表格',
  'cli.ratings.opt.style-control':
    '控制回答长度和 markdown 的影响（FastChat 的风格控制）：用回答已存储的对战，或带 conv_metadata 的文件',
  'cli.ratings.opt.ability': '只用这项能力的已存储对战',
  'cli.ratings.opt.source':
    '同时计入这个导入来源的已存储投票（可重复）；社区自己的投票（arena）和 ratings.include_sources 总是计入',
  'cli.ratings.opt.include-named':
    '同时计入标记为 `"anony": false` 的对战（投票者看到了模型名称；默认不计入，与 FastChat 相同）',
  'cli.ratings.opt.include-flagged': '同时计入被标记的投票（`zhujiu votes flagged`）',
  'cli.leaderboard.description':
    '煮酒排行榜：带 95% 置信区间的综合分、各评估方法与能力的得分、投票（docs/scoring.md §4–5）',
  'cli.leaderboard.arg.name': '要查看的能力、评估方法或模型',
  'cli.leaderboard.opt.view':
    'overall（默认）| ability | method | model | style；也可以不加 --view，只写 NAME 参数：能力、评估方法或模型的名称',
  'cli.leaderboard.opt.source': '同时计入这个导入来源的投票（可重复；社区的竞技场投票总是计入）',
  'cli.leaderboard.opt.json':
    '以 JSON 而不是表格输出视图：排行榜为 {board}，模型卡片为 {card}，单项能力 / 评估方法为 {ability} / {method}',
  'cli.leaderboard.opt.png': '同时把图表（PNG，总是整个排行榜）写入文件 FILE',
  'cli.leaderboard.opt.judge':
    '用这个评审模型的评分（而不是 judge.model 的）构建打分评估（试看视图：不存储，社区排行榜不变）',
  'cli.leaderboard.opt.all':
    '同时显示在任何评估方法中都没有得分的模型（评审模型、只在投票中出现的名称），默认不显示',
  'cli.leaderboard.opt.include-named': '同时计入标记为 `"anony": false` 的投票（试看视图，不存储）',
  'cli.leaderboard.opt.include-flagged': '同时计入被标记的投票（`zhujiu votes flagged`；试看视图）',
  'cli.votes.description': '已存储的投票：被标记的投票（docs/scoring.md §4.3）',
  'cli.votes.flagged.description':
    '被标记的在线投票（超过 arena.hygiene.daily_vote_cap，或投得比 read_ms_per_char 还快），最新的在前；除非指定 --include-flagged，否则不计入评分和排行榜',
  'cli.votes.flagged.opt.limit': '最多 N 条投票（默认 100，最多 10000）',
  'cli.votes.flagged.opt.since': '只列出在这个日期（UTC）及之后投出的票',
  'cli.votes.flagged.opt.json': '输出 {shape}',
  'cli.results.description':
    '一次评测任务的逐题结果，每道已完成的题目一条记录：提示、回答（推理过程单列）、抽取的答案、得分、评审评分及理由、安全判定、失败原因；不带 --run 时列出最近的评测任务',
  'cli.results.opt.run': '评测任务（编号，即 `zhujiu eval` 输出的编号）',
  'cli.results.opt.dataset': '只输出这个数据集的题目',
  'cli.results.opt.ability': '只输出这项能力的题目',
  'cli.results.opt.failed': '只输出失败的题目（附失败原因）',
  'cli.results.opt.format': 'JSON lines 或 CSV（RFC 4180，带表头行）',
  'cli.results.opt.out': '写入文件 FILE（原子写入），而不是标准输出',
  'cli.results.opt.bom':
    '在 CSV 开头写入 UTF-8 字节顺序标记（字节 EF BB BF），让 Excel 按 UTF-8 读取其中的中文；默认关闭，管道得到的是普通 CSV',
  'cli.export.description': '以公开格式导出已存储的数据',
  'cli.export.battles.description':
    '把一个来源的在线投票写成 Chatbot Arena 对战（每票一行 JSON）：model_a、model_b、winner、匿名化的投票者、轮次、时间戳',
  'cli.export.battles.opt.source': '对战的来源（默认：arena，社区自己的）',
  'cli.export.battles.opt.since': '只导出在这个日期（UTC）及之后投出的票',
  'cli.export.battles.opt.format': '行格式',
  'cli.export.battles.opt.out': '写入文件 FILE（原子写入），而不是标准输出',
  'cli.results.noRuns': '还没有评测任务（用 `zhujiu eval --model M --suite S` 发起一个）',
  'cli.results.col.run': '评测任务',
  'cli.results.col.model': '模型',
  'cli.results.col.suite': '评测套件',
  'cli.results.col.status': '状态',
  'cli.results.col.items': '题目（已完成 / 失败 / 计划）',
  'cli.results.noSuchRun':
    '--run {run}：没有编号为 #{run} 的评测任务；不带 --run 运行 `zhujiu results` 可列出所有评测任务（或在 HTTP 服务器上打开 /runs）',
  'cli.results.noDataset': '{flag} {name}：评测任务 #{run} 没有这个数据集；它的数据集有：{list}',
  'cli.results.noDatasetYet':
    '{flag} {name}：评测任务 #{run} 没有这个数据集；它还没有任何数据集（尚未计划题目）',
  'cli.results.noAbility': '{flag} {name}：评测任务 #{run} 没有这项能力的题目；它的能力有：{list}',
  'cli.results.noAbilityYet':
    '{flag} {name}：评测任务 #{run} 没有这项能力的题目；它还没有任何能力的题目',
  'cli.judgeSuite.noScoring': '评测套件 {suite} 没有打分评估数据集（method: scoring）',
  'cli.results.written': '评测任务 #{run}（{model}，{suite}）的 {n} 道题目（{format}）',
  'cli.results.writtenTo':
    '评测任务 #{run}（{model}，{suite}）的 {n} 道题目已写入 {out}（{format}）',
  'cli.results.badScore':
    '{name}“{value}”：请用 correct、wrong，或 0 到 1 之间的得分比例范围，例如 0.5-1',
  'cli.eval.recentRun': '#{id}（{model} 在 {suite} 上，{status}）',
  'cli.eval.none': '（无）',
  'cli.eval.noSuchRun': '没有编号为 #{run} 的评测任务；最近的评测任务：{recent}',
  'cli.eval.eta.seconds': '{s} 秒',
  'cli.eval.eta.minutes': '{m} 分 {s} 秒',
  'cli.eval.eta.hours': '{h} 小时 {m} 分',
  'cli.eval.bar': '评测任务 #{run} [{bar}] {value}/{total} 题 | {failed} 题失败 | 剩余 {eta}',
  'cli.eval.preparing': '评测任务 #{run} 准备中…（正在加载数据集）',
  'cli.eval.active':
    '{model} 在 {suite} 上的评测任务 #{id} 正在另一个进程中{status}（{done}/{total} 题）。请等待它完成，或取消它：`zhujiu eval --cancel {id}`。',
  'cli.eval.resumeLimit':
    '注意：评测任务 #{run} 沿用它自己的题目上限（{kept}），而不是 --limit {asked}；如要改用这个上限，请先取消它（zhujiu eval --cancel {run}）',
  'cli.eval.noLimit': '无',
  'cli.eval.resuming': '继续评测任务 #{run}（它的进程停止时状态为{status}）',
  'cli.eval.progress': '评测任务 #{run}：{done}/{total} 题，{failed} 题失败，每秒 {rate} 题',
  'cli.eval.stopped': '已停止：评测任务 #{run} 仍保持进行中；再次运行同一命令即可继续',
  'cli.eval.stoppedBeforeRun': '已在评测任务开始前停止：未创建评测任务',
  'cli.eval.failed': '错误：评测任务 #{run} 失败',
  'cli.eval.failedWith': '错误：评测任务 #{run} 失败：{error}',
  'cli.eval.cancelled': '错误：评测任务 #{run} 在完成前被取消',
  'cli.eval.allFailed':
    '错误：评测任务 #{run}：所有题目都失败了（{n} 题中 {n} 题），没有得到任何分数；见上方的失败原因',
  'cli.eval.tooMany': '错误：评测任务 #{run}：{problem}；它的分数不含这些题目（见上方的失败原因）',
  'cli.eval.summary': '评测任务 #{run}：{model} 在 {suite} 上：{ended}',
  'cli.eval.tableHead': '数据集|能力|指标|配置|得分/10|题数|得分点|失败',
  'cli.eval.tokens': '词元：提示 {prompt} + 生成 {completion}；用时 {wall}',
  'cli.eval.failures': '失败：{line}',
  'cli.eval.barless': '评测任务 #{run} {value}/{total} 题 | {failed} 题失败 | 剩余 {eta}',
  'cli.config.reachable': '{db}，可以连接，',
  'cli.config.upToDate': '{where}数据库迁移已是最新（{n} 个）',
  'cli.config.pending':
    '{where}数据库迁移：已应用 {applied} 个，{n} 个将在下次启动时应用（{list}）',
  'cli.config.pgliteNotChecked': '嵌入式 PGlite，位于 {dir}，未检查目录锁（--no-connect）',
  'cli.config.pgliteNew': '嵌入式 PGlite，位于 {dir}，尚未创建（首次启动时创建；没有进程占用）',
  'cli.config.pgliteFree':
    '嵌入式 PGlite，位于 {dir}，空闲（没有其他 zhujiu 进程占用；同一时间只能有一个进程）',
  'cli.config.postgresNotChecked': 'Postgres（DATABASE_URL），未检查连接（--no-connect）',
  'cli.config.endpointsFailed':
    '{n} 个端点未通过连接检查（GET /models；可用 --no-endpoints 跳过）：\n{list}',
  'cli.config.read': '已读取配置：{dir}（有接口检查失败，见下文）',
  'cli.config.ok': '配置正确：{dir}',
  'cli.config.models': '  模型：{n}{names}',
  'cli.config.suites': '  评测套件：{n}{names}',
  'cli.config.database': '  数据库：{database}',
  'cli.config.endpoint': '  端点：{endpoint}',
  'cli.config.warning': '  警告：{warning}',
  'cli.config.slack': 'slack（{mode} 模式）',
  'cli.config.chat': '  聊天：{chat}',
  'cli.config.terminal': '终端（未设置 DISCORD_TOKEN / SLACK_BOT_TOKEN）',
  'cli.config.names': '（{names}）',
  'cli.config.yamlSyntax': '{at}：YAML 语法错误（{detail}）{more}',
  'cli.config.yamlMore': '；由它引起的语法错误还有 {n} 处',
  'cli.config.noFolder':
    '配置目录 {dir} 不存在（来自 {from}）；请修正路径，或取消设置以使用 ./config',
  'cli.config.folderIsFile':
    '配置目录 {dir} 是文件，不是目录（来自 {from}）；请让它指向存放 default.yaml 的目录，或取消设置以使用 ./config',
  'cli.config.fromCaller': '调用方',
  'cli.config.unreadable': '{path}：无法读取（{code}）；请检查配置目录及其文件的权限',
  'cli.config.yamlMsg.unclosed':
    '{open} 没有闭合：请补上与它配对的 {close}；{open} … {close} 跨多行时，每行都要比它所属的键缩进更多',
  'cli.config.yamlMsg.quote': '引号中的文本没有闭合：请补上右引号 {quote}',
  'cli.config.yamlMsg.comma': '[ ] 或 { } 中的两项之间缺少逗号',
  'cli.config.yamlMsg.commaOrColon': '{ } 中的项之间要有逗号，每个键后面要有冒号',
  'cli.config.yamlMsg.noValue': '键后面没有值：请写成 `key: value`，冒号后加一个空格',
  'cli.config.yamlMsg.mapColumn': '同一映射的键必须从同一列开始',
  'cli.config.yamlMsg.seqColumn': '同一列表的项（- …）必须从同一列开始',
  'cli.config.yamlMsg.noDash':
    '这一行的缩进与列表项相同，却不以 - 开头：请把它缩进到与所属项的键对齐，或以 - 开始新的一项',
  'cli.config.yamlMsg.plainStart': '不加引号的值不能以 {char} 开头；请给值加上引号',
  'cli.config.yamlMsg.escape':
    '{seq} 不是双引号文本中有效的转义序列：反斜杠请写成 \\\\，或改用单引号',
  'cli.config.yamlMsg.comment': '注释（#）前面要有空格',
  'cli.config.yamlMsg.flowEnd': '右括号 ] 或 } 要比它所属的键缩进更多',
  'cli.config.yamlCodeDetail': '{code}：{sentence}',
  'cli.config.fileProblems': '{text}',
  'cli.config.yamlCode.ALIAS_PROPS': '别名（*name）不能带锚点或标签',
  'cli.config.yamlCode.BAD_ALIAS': '锚点或别名的名字为空，或以冒号结尾',
  'cli.config.yamlCode.BAD_DIRECTIVE': '指令（以 % 开头的行）无效',
  'cli.config.yamlCode.BAD_DQ_ESCAPE': '双引号文本中有无效的转义序列',
  'cli.config.yamlCode.BAD_INDENT': '缩进不对；同一映射的键、同一列表的项要对齐',
  'cli.config.yamlCode.BAD_PROP_ORDER': '锚点和标签必须写在 - 或 ? 标记之后',
  'cli.config.yamlCode.BAD_SCALAR_START': '不加引号的值不能以这个字符开头；请给值加上引号',
  'cli.config.yamlCode.BLOCK_AS_IMPLICIT_KEY': '列表或映射不能作为键；请检查缩进和冒号',
  'cli.config.yamlCode.BLOCK_IN_FLOW': '用方括号或花括号写的集合中不能有块格式的值',
  'cli.config.yamlCode.DUPLICATE_KEY': '同一映射中有重复的键；请只保留一个',
  'cli.config.yamlCode.IMPOSSIBLE': '解析器无法读取此处的文本；请检查它',
  'cli.config.yamlCode.KEY_OVER_1024_CHARS': '键超过 1024 个字符',
  'cli.config.yamlCode.MISSING_CHAR': '缺少字符，例如右引号、冒号、逗号或列表项前的 -',
  'cli.config.yamlCode.MULTILINE_IMPLICIT_KEY': '键跨了多行；请检查缩进和引号',
  'cli.config.yamlCode.MULTIPLE_ANCHORS': '一个值有多个锚点',
  'cli.config.yamlCode.MULTIPLE_DOCS': '文件中有多个 YAML 文档（---）；请只保留一个',
  'cli.config.yamlCode.MULTIPLE_TAGS': '一个值有多个标签',
  'cli.config.yamlCode.NON_STRING_KEY': '键不是文本',
  'cli.config.yamlCode.RESOURCE_EXHAUSTION': '别名展开后的数据过多',
  'cli.config.yamlCode.TAB_AS_INDENT': '用了制表符缩进；请用空格缩进',
  'cli.config.yamlCode.TAG_RESOLVE_FAILED': '标签（!name）未知，或与它的值不符',
  'cli.config.yamlCode.UNEXPECTED_TOKEN': '此处有意外的字符或标记',
  'cli.config.yamlCode.BAD_COLLECTION_TYPE': '标签要求另一种集合类型',
  'cli.config.folderUnderFile':
    '配置目录 {dir} 位于一个文件之下（{file} 是文件，不是目录：ENOTDIR；来自 {from}）；请让它指向存放 default.yaml 的目录，或取消设置以使用 ./config',
  'cli.interrupt.imported': '导入',
  'cli.interrupt.written': '写入',
  'cli.interrupt.stopping': '中断：正在停止；除非提交已经开始，否则不会{what}任何内容',
  'cli.interrupt.committed': '提交时被中断：提交已完成，所以全部内容都已{what}（见下方）',
  'cli.interrupt.nothing': '已中断：没有{what}任何内容',
  'cli.import.outputs.done':
    '已为 {model} 导入 {n} 条回答到数据集 {dataset}（{rows} 行，{skipped} 条已存在{differing}），用时 {secs} 秒',
  'cli.import.differFile': '；其中 {n} 条与文件不同，已保留存储的版本：{items}',
  'cli.import.differFiles': '；其中 {n} 条与文件不同，已保留存储的版本：{items}',
  'cli.import.generatorMismatch':
    '{at}：`generator` 是“{generator}”，但 --model 是“{model}”；请改用 --model {word}，或导入正确的文件',
  'cli.import.gaokaoDataset':
    '--dataset 不适用于 --format gaokao：题目会归入 gaokao-objective 评测套件的 gaokao_<科目> 数据集',
  'cli.import.gaokao.done':
    '已从 {files} 个 GAOKAO-Bench 文件为 {model} 导入 {n} 条回答到 {datasets} 个数据集（{counts}；{rows} 道题，{skipped} 道已存在{differing}），用时 {secs} 秒；用 `zhujiu eval --model {word} --suite gaokao-objective` 为它们评分',
  'cli.import.andMore': '{shown} 等另外 {n} 个',
  'cli.import.battles.done':
    '已从来源 {source} 导入 {n} 场对战（{n} 票；{rows} 行，{skipped} 行已存在{duplicates}，{models} 个模型），用时 {secs} 秒',
  'cli.import.battles.duplicates':
    '，跳过 {n} 行重复行（按 question_id、tstamp 和 judge 是同一票，在文件中再次出现）',
  'cli.import.battles.tstampType':
    '`tstamp` 必须是 Unix 秒数（FastChat 的写法），得到的是{value}；请改正或删去该键（没有时间的行使用导入时的时间）',
  'cli.import.battles.votedAtType':
    '`voted_at` 必须是带时区的 ISO 8601 时间（例如 2024-08-14T09:30:00.000Z），得到的是{value}；请改正或删去该键（没有时间的行使用导入时的时间）',
  'cli.import.battles.timeRange':
    '`{field}` {value}（{when}）不是可信的投票时间：它必须在 2000-01-01 与 {latest}（现在之后一天）之间；请给出 Unix 秒数（以毫秒计的值大了 1000 倍）',
  'cli.import.datasetFromFile':
    '从文件名得到的数据集名称“{name}”{problem}；请用 --dataset NAME 指定',
  'cli.import.differInstruction': '指令“{text}”（第 {line} 行）',
  'cli.import.differItem': '题目“{key}”（第 {line} 行）',
  'cli.import.differItemOf': '{dataset} 题目“{key}”',
  'cli.sources.none': '无',
  'cli.sources.item': '{source}（{votes} {n, plural, other {票}}）',
  'cli.sources.missing':
    '--source {name}：{where} 中没有存储这个来源的对战；已存储的来源：{stored}。请先导入（`zhujiu import battles FILE --source {name}`），或改正名称。',
  'cli.sources.elsewhere':
    '{counted} 没有投票；{n, plural, other {其他来源}}有投票：{stored}。可以用 {commands} 查看',
  'cli.export.done': '已从来源 {source} 导出 {battles} 场对战的 {votes} 票（{format}）',
  'cli.export.doneTo': '已从来源 {source} 导出 {battles} 场对战的 {votes} 票到 {out}（{format}）',
  'cli.export.noSource':
    '--source {source}：没有对战属于这个来源；请检查名称（社区自己的投票是 `arena`，导入的投票用导入时的 --source）',
  'cli.datasets.unwritable': '无法把自建数据集写入 {out}（{why}）；请给 --out 一个可写的目录',
  'cli.datasets.fileInPath': '路径中有一个文件',
  'cli.datasets.built': '已构建到 {out}',
  'cli.datasets.builder': '{name}：{files} 个文件，{items} 道题',
  'cli.datasets.from': '  来自 {from}',
  'cli.leaderboard.chart': '图表已写入 {path}',
  'cli.leaderboard.chartWhole': '图表已写入 {path}（无论查看哪个视图，图表总是显示整个排行榜）',
  'cli.leaderboard.style':
    '风格视图在聊天中是 `/leaderboard style`；在命令行上请用 `zhujiu ratings --style-control`',
  'cli.leaderboard.noJudge':
    '--judge {judge}：没有存储这个评审模型的评分；有评分的评审模型：{known}。请先用 `zhujiu judge run --judge {judge}` 评分',
  'cli.leaderboard.noModel':
    '排行榜上没有模型“{model}”；模型：{names}；请选一个：`zhujiu leaderboard{sources} --view model NAME`',
  'cli.leaderboard.noModel.sources':
    '。只在导入投票中出现的模型要加 `--source NAME`（或 `ratings.include_sources`）才会上榜',
  'cli.leaderboard.noModel.view':
    '。`--view` 可取 overall、ability NAME、method NAME 或 model NAME（单独一个名称依次按能力、评估方法、模型理解）',
  'cli.leaderboard.emptyPng':
    '--png {png}：排行榜是空的，没有图表可写（没有模型有得分或计入的投票）。请先导入输出或投票（`zhujiu import …`），或用 `--source NAME` 计入导入的投票。',
  'cli.ratings.votesNote': '投票：社区自己的（arena）{imported}{notCounted}',
  'cli.ratings.plusImported': '，加上导入的 {list}',
  'cli.ratings.notCounted': '；未计入：{list}（加 --source NAME 可计入其中一个）。',
  'cli.ratings.fullStop': '。',
  'cli.ratings.forAbility': '（能力 {ability}）',
  'cli.ratings.noStyleVotes':
    '数据库（{db}）中没有来自 {sources} 且回答已存储的对战投票{ability}：风格控制需要回答（导入的投票没有回答）；请在竞技场中投票，或用 --battles FILE 传入带 conv_metadata 的文件',
  'cli.ratings.noVotes':
    '数据库（{db}）中没有来自 {sources} 的投票{ability}：{fix}请在竞技场中投票，或用 --battles FILE 传入文件',
  'cli.ratings.noVotes.addSource':
    '导入的投票只有在要求时才计入：加上 {flags}（或在 {default} 的 ratings.include_sources 中列出该来源），',
  'cli.ratings.noVotes.import':
    '导入对战（`zhujiu import battles FILE --source NAME`，然后加上 --source NAME），',
  'cli.ratings.or': ' 或 ',
  'cli.agree.na': '无',
  'cli.agree.kappa': "Cohen's kappa 系数 {kappa}",
  'cli.agree.weighted': '加权 kappa：线性 {linear}，二次 {quadratic}{unordered}',
  'cli.agree.unordered': '（标签无序；用 --order 指定顺序以加权）',
  'cli.agree.exact': '完全一致率 {exact}%',
  'cli.agree.withinOne': '，相差不超过一 {within}%',
  'cli.agree.confusion': '混淆矩阵（行：A，列：B）：',
  'cli.agree.order': '--order “{order}”：请至少列出两个标签，从低到高，例如 --order 1,0,2',
  'cli.agree.failed': '{a} 和 {b}：{reason}',
  'cli.agree.disjoint': '（两个文件没有共同的题目；它们按 `item` 对齐）',
  'cli.agree.leftOut': '注意：只在 {a} 中的 {onlyA} 道题和只在 {b} 中的 {onlyB} 道题不计入 n',
  'cli.judgeExport.noModel': '--model {model}：没有这个模型',
  'cli.judgeExport.ofModel': '（模型 {model}）',
  'cli.judgeExport.onDataset': '（数据集 {dataset}）',
  'cli.judgeExport.noGrades':
    '--judge {judge}：没有存储这个评审模型的评分{scope}{failures}；有单回答评审记录的评审模型：{judges}',
  'cli.judgeExport.failures': '（{n} 次评审失败；用 `zhujiu judge run` 重试）',
  'cli.judgeExport.done': '已导出 {judge} 的 {n} 条评分{failures}',
  'cli.judgeExport.doneTo': '已导出 {judge} 的 {n} 条评分到 {out}{failures}',
  'cli.judgeExport.leftOut': '（{n} 次评审失败没有标签，未导出）',
  'cli.suites.folder': '数据集目录：{dir}（设置 ZHUJIU_DATASETS_DIR 可更改）',
  'cli.suites.unavailable': '不可用（见下方）',
  'cli.suites.size': '{n} 个数据集，{items}',
  'cli.suites.fromImports': '题目来自导入',
  'cli.suites.items': '{n} 道题',
  'cli.suites.itemsOf': '{rows} 道题中的 {n} 道',
  'cli.suites.stored': '已存储的题目',
  'cli.suites.includes': '，包含 {list}',
  'cli.suites.noFolder':
    '数据集目录 {dir} 不存在（由环境变量 ZHUJIU_DATASETS_DIR 设置；默认是工作目录下的 datasets）；请创建它并把数据集文件放进去，或者把 ZHUJIU_DATASETS_DIR 设为存放这些文件的目录（README“Where the files are”）',
  'cli.suites.unavailableNoFolder': '不可用（没有数据集目录，见上方）',
  'cli.suites.folderIsFile':
    '数据集目录 {dir} 是一个文件，不是目录（由环境变量 ZHUJIU_DATASETS_DIR 设置）；请把 ZHUJIU_DATASETS_DIR 设为存放数据集文件的目录（README“Where the files are”）',
  'cli.suites.folderUnderFile':
    '数据集目录 {dir} 位于一个文件之下（{file} 是文件，不是目录：ENOTDIR；由环境变量 ZHUJIU_DATASETS_DIR 设置）；请把 ZHUJIU_DATASETS_DIR 设为存放数据集文件的目录（README“Where the files are”）',
  'cli.submissions.none': '没有提交',
  'cli.submissions.noneWith': '没有状态为 {status} 的提交',
  'cli.submissions.row': '#{id} {status} {name} | {model}，位于 {url} | {organisation} | {licence}',
  'cli.submissions.reason': ' | 理由：{reason}',
  'cli.submissions.runs': ' | 评测任务 {runs}',
  'cli.submissions.approved': '提交 #{id} 已批准：{name} 现在是一个模型',
  'cli.submissions.queued': '评测任务 #{run} 已排队：{name} 在 {suite} 上',
  'cli.submissions.notQueued': '未排队：{suite}：{reason}',
  'cli.submissions.rejected': '提交 #{id} 已拒绝：{name}：{reason}',
  'cli.submissions.notQueuedAny': '未排队：{reason}',
  'cli.migrate.downNeedsYes':
    'migrate --down 会回滚最近一次迁移，并删除它所创建内容中的数据（对 0001_initial 即所有表）。请先备份，然后运行 `zhujiu migrate --down --yes`。',
  'cli.migrate.nothingDown': '没有可回滚的迁移：{db} 中没有已应用的迁移',
  'cli.migrate.rolledBack':
    '已在 {db} 中回滚 {names}（它创建的内容已删除）；`zhujiu migrate` 会重新应用它（每次启动也会）',
  'cli.migrate.upToDate': '数据库已是最新（{db}）：没有要应用的迁移',
  'cli.migrate.created': '已创建数据库（{db}），已是最新',
  'cli.migrate.createdApplied': '已创建数据库（{db}）并应用了 {names}，已是最新',
  'cli.migrate.applied': '已应用 {names}；数据库已是最新（{db}）',
  'cli.migrate.upgradeAndDown':
    '--upgrade-data-dir 和 --down 做的是不同的事：请一次只运行其中一个。',
  'cli.migrate.upgradePostgres':
    '--upgrade-data-dir 升级的是嵌入式数据库目录（ZHUJIU_DATA_DIR），但设置了 DATABASE_URL：Postgres 服务器要用它自己的工具（pg_upgrade）升级。要升级该目录，请取消设置 DATABASE_URL。',
  'cli.migrate.upgradeEmpty':
    '{dir} 中还没有嵌入式数据库：无需升级（zhujiu 首次运行时会在那里创建 PostgreSQL 18 目录）',
  'cli.migrate.upgradeCurrent': '{dir} 已经是 PostgreSQL 18 目录：无需升级',
  'cli.migrate.upgradeBackup': '（旧目录是 {backup}）',
  'cli.migrate.upgradeFinished': '已完成之前对 {dir} 的升级{backup}',
  'cli.migrate.upgraded':
    '已把 {dir} 升级到 PostgreSQL 18：复制并核对了 {tables} 张表、{rows} 行，用时 {secs} 秒{applied}。旧目录保留在 {backup}：确认 zhujiu 运行正常后即可删除。',
  'cli.migrate.upgradeCopied': '已复制 {table}：{rows} 行',
  'cli.migrate.thenApplied': '，然后应用了 {names}',
  'cli.judge.board': '排行榜（评审 {judge}）',
  'cli.judge.noneChosen': '未选择：请设置 judge.model',
  'cli.judge.trialBoard':
    '使用评审 {judge} 评分的排行榜（试看，不存储：`zhujiu leaderboard --judge {judge}`）',
  'cli.judge.scoringLine':
    '{where}：{model} 打分评估 {scoring}，归一化后 {normalised}{abilities}（十分制）',
  'cli.judge.pairwise':
    '{model} 对 {baseline}（评审 {judge}）：胜率 {rate}% ± {se}（标准误），离散胜率 {discrete}%，{of} 道中已评审 {n} 道',
  'cli.judge.dataset':
    '{dataset} [{ability}] {rubric}，评审 {judge}：{label}；{earned} / {possible} 分（{ratio}）；原始均分 {raw}，SV 均分 {sv}，Δ {delta}，SV 率 {svRate}，满分率 {perfect}，及格率 {pass}（十分制）',
  'cli.judge.noGrade': '没有评分',
  'cli.judge.safetyFailed': '安全检查失败',
  'cli.judge.more': '，… 另外 {n} 个',
  'cli.judge.failuresOf': '  评审失败：{list}{more}',
  'cli.judge.noScores': '{model} 没有评审分数',
  'cli.judge.noScoresBy': '{model} 没有 {judge} 给出的评审分数',
  'cli.judge.imported':
    '已从 {files} 个文件导入 {judge} 对 {models} 的 {rows} 条评审分数（已评审 {judged} 条，评审失败 {failed} 条；写入 {written} 条），用时 {secs} 秒',
  'cli.judge.overMax': '注意：有 {n} 道题被记录的评审给了超过满分的分数，按公布的原样保留：{items}',
  'cli.judge.which.eg': '例如 ',
  'cli.judge.which.item': '题目 ',
  'cli.judge.which.items': '题目 ',
  'cli.judge.failureLine': '{n} 道题 × {code}（尝试 {attempts} 次后）：{message}；{which}{items}',
  'cli.judge.runLine':
    '{dataset}（{rubric}，评审 {judge}）：{of} 道中已评审 {judged} 道，评审失败 {failed} 道，{skipped} 道此前已评审，调用评审 {calls} 次{unanswered}',
  'cli.judge.unanswered': '；{n} 道题没有存储 {model} 的回答',
  'cli.judge.stopped': '已停止：已评审的结果会保留；再次运行同一命令即可评审其余题目',
  'cli.judge.retry': '评审失败不算分数；再次运行同一命令即可只重试它们',
  'cli.judge.allFailed':
    '错误：所有题目都评审失败（{n} 道中 {n} 道）；没有评审任何题目。请检查评审模型 {judge}（上方的失败说明了原因），然后再次运行同一命令',
  'cli.judge.tooMany':
    '错误：{total} 个回答中有 {failed} 个没有 {judge} 的评分（{percent}%），超过 eval.max_failure_rate {max}；再次运行同一命令即可只重试它们',
  'cli.judge.unknownSuite': '--suite {suite}：没有这个评测套件；现有的评测套件：{suites}{meant}',
  'cli.judge.unknownSuite.none':
    '--suite {suite}：没有这个评测套件；没有配置任何评测套件（config/suites/*.yaml）',
  'cli.judge.unknownModel':
    '--model {model}：没有这个模型：{models} 中没有列出它，也没有存储它的回答；已有的模型：{valid}{meant}。请给出其中之一，或用 `zhujiu import outputs FILE --model {word}` 导入它的回答',
  'cli.judge.unknownModel.none':
    '--model {model}：没有这个模型：{models} 没有列出模型，也没有存储任何回答；请用 `zhujiu import outputs FILE --model {word}` 导入它的回答，或把它加到 {models} 后运行 `zhujiu eval`',
  'cli.judge.noAnswers':
    '--model {model}：没有存储这个模型的回答；请先运行一次评测（`zhujiu eval --model {word}`）或导入它的输出',
  'cli.judge.unknownJudge':
    '--judge {judge}：{models} 中没有这个模型；请把它加到那里（任何 OpenAI 兼容的端点都可以），或给出其中列出的模型之一：{valid}{meant}',
  'cli.judge.unknownJudge.none':
    '--judge {judge}：{models} 中没有这个模型；请把它加到那里（任何 OpenAI 兼容的端点都可以）',
  'cli.rubric.missing':
    '评分细则“{name}”：{file} 不存在；请添加它，或使用 ten_point / industry_0_3',
  'cli.rubric.otherName': '{file}：name 是“{named}”，但文件名是 {name}.yaml',
  'cli.rubric.noScale': '{file}：单回答评分细则需要 `scale: {shape}`',
  'cli.judge.list': '{list}{more}',
  'cli.judge.didYouMean': '（你是不是想写“{name}”？）',
  'cli.judge.noModel':
    '--model {model}：没有这个模型；请先导入评审结果或运行评测（zhujiu import judgments …）',
  'cli.judge.noBaseline': '--baseline {model}：没有这个模型',
  'cli.ratings.anchorForm':
    '--anchor 必须写成 MODEL=RATING，例如 mixtral-8x7b-instruct-v0.1=1114（收到的是“{got}”）',
  'cli.ratings.intMin': '--{name} 必须是不小于 {min} 的整数，收到的是 {got}',
  'cli.ratings.intRange': '--{name} 必须是 {min} 到 {max} 之间的整数，收到的是 {got}',
  'cli.ratings.noBattles':
    '没有可计算评分的对战：请用 --battles FILE 传入文件（对战或成对计数的 JSONL），或在配置了数据库的地方运行',
  'cli.ratings.anchorMissing':
    '--anchor 的模型“{model}”不在数据中（共 {n} 个模型）；请检查名称或去掉 --anchor',
  'cli.ratings.anchorUnknown':
    '--anchor 的模型“{model}”不在数据、配置或已存储的模型中；参与评分的模型：{list}{meant}',
  'cli.ratings.styleAnchor':
    '--anchor 不能与 --style-control 一起使用（风格控制的评分采用 FastChat 的 1000 + 400·r 刻度）；请去掉 --anchor',
  'cli.ratings.styleNoBattles':
    '没有可计算评分的对战：请用 --battles FILE 传入文件（带 conv_metadata 的 FastChat 行），或在配置了数据库的地方运行',
  'cli.ratings.noSpread':
    '每一轮 bootstrap 给这个模型的评分都相同（它的投票在重采样下无法变化，例如只有平局），这并不代表确定；不显示区间；请为它收集更多投票',
  'cli.ratings.notRatedPrefix': '未评分：',
  'cli.ratings.excl.disconnected': '未评分：它没有与其他模型对战的投票；请为它的对战投票',
  'cli.ratings.excl.above':
    '未评分：它从未输给遇到的模型（平局算半场），所以它的最大似然评分为 +∞；它需要对其中一个模型输一场或打平一场',
  'cli.ratings.excl.below':
    '未评分：它从未赢过遇到的模型（平局算半场），所以它的最大似然评分为 −∞；它需要对其中一个模型赢一场或打平一场',
  'cli.ratings.excl.unbounded':
    '未评分：它只通过其他未评分的模型与已评分的模型相连；它需要与已评分模型对战的投票',
  'cli.ratings.exclName.disconnected': '未相连',
  'cli.ratings.exclName.above': '无上界',
  'cli.ratings.exclName.below': '无下界',
  'cli.ratings.exclName.unbounded': '无界',
  'cli.ratings.excl.other': '未评分：没有有限的最大似然评分',
  'cli.ratings.component':
    '第 {component} 组：只与 {members} 对战过；没有对战把这些模型与第 1 组相连，所以它们的评分自成刻度，不能与第 1 组比较',
  'cli.ratings.head': '名次|模型|评分|95% 置信区间|在线 Elo|票数|平均胜率',
  'cli.ratings.colon': '：',
  'cli.ratings.tooFew': '投票太少',
  'cli.ratings.none': '还没有模型得到评分：没有两个模型彼此之间既有胜（或平）又有负。',
  'cli.ratings.separate': '单独的{note}。',
  'cli.ratings.components': '共 {n} 个互不相连的比较组：评分、区间和名次只能在同一组内比较。',
  'cli.ratings.infinite':
    '∞：在超过 2.5% 的 bootstrap 轮次中，这个模型只有胜（∞）或只有负（−∞）：投票太少，无法得到有限的边界；请为它收集更多投票',
  'cli.ratings.undefinedBound':
    '?：没有任何一轮 bootstrap 给出这个模型的评分；请收集它与其他模型之间的更多投票',
  'cli.ratings.notRated': '未评分（没有有限的最大似然评分）：{n} 个',
  'cli.ratings.inComponent': '，第 {component} 组',
  'cli.ratings.excluded': '  {model}：{reason}（{n} 票{where}）：{why}',
  'cli.ratings.named':
    '未计入：{n} 场标记为 `"anony": false` 的对战（投票者看到了模型名称）；加 --include-named 可计入。',
  'cli.ratings.method': 'Bradley–Terry 最大似然估计（Elo 刻度；{scale}{within}）；{bootstrap}{elo}',
  'cli.ratings.anchored': '锚定 {anchor}',
  'cli.ratings.mean': '均值 1000',
  'cli.ratings.within': '，各组分别计算',
  'cli.ratings.ci': '95% 置信区间来自 {rounds} 轮 bootstrap，随机种子 {seed}',
  'cli.ratings.noBootstrap': '不做 bootstrap（按点评分排名）',
  'cli.ratings.eloNone': '；在线 Elo 需要有先后顺序的对战（—）',
  'cli.ratings.elo': '；在线 Elo：K=4',
  'cli.ratings.styleHead': '名次|模型|评分|95% 置信区间|票数',
  'cli.ratings.style.length': '回答长度',
  'cli.ratings.style.header': '标题',
  'cli.ratings.style.list': '列表',
  'cli.ratings.style.bold': '粗体',
  'cli.ratings.style.ci': '（95% 置信区间 {lo} – {hi}）',
  'cli.ratings.style.constant': '（在每场对战中都相同：未拟合）',
  'cli.ratings.style.method':
    '风格控制的 Bradley–Terry（FastChat compute_style_control；1000 + 400·r，L2 0.5）；{battles} 场对战{leftOut}；{bootstrap}',
  'cli.ratings.style.leftOut': '，{n} 场没有存储回答，未计入',
  'cli.ratings.style.noBootstrap': '不做 bootstrap',
  'cli.ratings.style.coefficients': '风格系数（(a − b) / (a + b + 1) 每个标准差对应的对数几率）：',
  'cli.ratings.duplicates':
    '未计入：{n} 行重复行（按 question_id、tstamp 和 judge 是同一票，在文件中再次出现）。',
  'cli.configFile.type.number': '数字',
  'cli.configFile.type.int': '整数',
  'cli.configFile.type.string': '文本',
  'cli.configFile.type.boolean': '布尔值（true 或 false）',
  'cli.configFile.type.array': '列表',
  'cli.configFile.type.object': '映射（key: value 形式的行）',
  'cli.configFile.value.nothing': '空值',
  'cli.configFile.value.text': '文本“{text}”',
  'cli.configFile.value.scalar': '{type} {value}',
  'cli.configFile.value.number': '数字',
  'cli.configFile.value.boolean': '布尔值',
  'cli.configFile.value.list': '列表',
  'cli.configFile.value.mapping': '映射',
  'cli.configFile.example': '，例如 {example}',
  'cli.configFile.keysHere': '；此处可用的键有 {keys}',
  'cli.configFile.unknownKey': '{at} {path}：未知的键“{key}”：请删除它或修正拼写{near}',
  'cli.configFile.missingChoice': '缺少必需的键“{key}”：请添加 {choices}',
  'cli.configFile.or': ' 或 ',
  'cli.configFile.oneOf': '应为 {choices} 之一，实际是{got}',
  'cli.configFile.expected': '应为{what}{example}，实际是{got}',
  'cli.configFile.problem': '{at} {path}：{message}',
  'cli.configFile.datasetTwice':
    '{file}：评测套件“{suite}”的数据集“{dataset}”出现了两次（{before}和{via}）；一个评测套件连同它包含的套件，数据集名称必须各不相同：只包含其中一个，或给其中一个数据集改名',
  'cli.configFile.unknownInclude':
    '{where}：未知的评测套件“{suite}”；{dir}/ 中的评测套件有 {names}：请改正名称，或添加这个评测套件',
  'cli.configFile.includeCycle':
    '{where}：包含评测套件“{suite}”形成了循环（{loop}）；请去掉这条链上的一个 include',
  'cli.configFile.viaInclude': '包含的评测套件“{suite}”',
  'cli.configFile.viaOwn': '它自己的数据集',
  'cli.configFile.suiteTwice':
    '{file}：评测套件名称“{name}”被使用了两次（另一处在 {first}）；请给每个评测套件一个不同的名称',
  'cli.configFile.modelTwice':
    '{at} models[{i}].name：模型“{name}”列出了两次（第一次在 {first}）；请给每个模型一个不同的名称，或删除其中一个',
  'cli.configFile.didYouMeanKeys': '；你是不是想写“{name}”？此处可用的键有 {keys}',
  'cli.configFile.missingKeyOneOf': '缺少必需的键“{key}”：请添加 `{key}:`，值为 {choices} 之一',
  'cli.configFile.missingKeyType': '缺少必需的键“{key}”：请添加 `{key}:`，值为{what}',
  'cli.configFile.meant': '；你是不是想写“{name}”？',
  'cli.start.voterSecret':
    '环境变量 ZHUJIU_VOTER_SECRET：未设置，但设置了 DATABASE_URL：共用一个数据库的每个进程都必须用同一个密钥对投票者 id 做哈希。请设置它，例如 `export ZHUJIU_VOTER_SECRET=$(openssl rand -hex 32)`。',
  'cli.start.slackAppToken':
    '{where}：Socket Mode（默认）除了 SLACK_BOT_TOKEN 还需要 SLACK_APP_TOKEN（xapp-… 形式的应用级令牌）。请设置它，或者改用 `mode: http` 并设置 SLACK_SIGNING_SECRET。',
  'cli.start.slackSigningSecret':
    '{where}：HTTP 模式除了 SLACK_BOT_TOKEN 还需要 SLACK_SIGNING_SECRET 来验证 Slack 的请求。请设置它，或者改用 `mode: socket` 并设置 SLACK_APP_TOKEN。',
  'cli.start.judgeWhat': '/eval 和 `zhujiu eval` 的打分数据集',
  'cli.start.classifierWhat': '/ask 中未标注能力的提问的能力',
  'cli.start.namedRecorded':
    '{at} {key}：“{name}”是只有导入答案的模型，无法调用，因此无法评判{what}。请填写 models.yaml 中一个 OpenAI 兼容的模型（已配置：{configured}），或者设为 null。',
  'cli.start.namedUnknown':
    '{at} {key}：“{name}”不是 {models} 中的模型，因此无法评判{what}。请填写 models.yaml 中一个 OpenAI 兼容的模型（已配置：{configured}），或者设为 null。',
  'cli.start.none': '无',
  'cli.start.disabledUnset':
    '{at} models[{i}].api_key_env：环境中没有设置 {variable}，因此模型“{name}”已停用（无法调用它；其余功能正常）。请用 API 密钥导出这个变量后重启，如果端点不需要密钥，也可以删除 api_key_env。',
  'cli.start.disabledEmpty':
    '{at} models[{i}].api_key_env：环境中的 {variable} 已设置但为空，因此模型“{name}”已停用（无法调用它；其余功能正常）。请给它填上 API 密钥后重启，如果端点不需要密钥，也可以删除 api_key_env。',
  'cli.endpoint.notListed': '（其中没有模型 id {model}）',
  'cli.endpoint.answers': '模型 {name}：{host} 有应答，列出了 {n} 个模型{listed}',
  'cli.endpoint.timeout': '模型 {name}：{host} 在 {ms} 毫秒内没有应答（GET /models）',
  'cli.endpoint.unreachable':
    '模型 {name}：无法连接 {host}（{why}）；请检查它在 {file} 中的 base_url，以及服务器是否在运行',
  'cli.endpoint.keyRefused':
    '模型 {name}：{host} 拒绝了 API 密钥（HTTP {status}）；请检查 {variable}（{file} 的 api_key_env）',
  'cli.endpoint.keyNeeded':
    '模型 {name}：{host} 拒绝了没有 API 密钥的请求（HTTP {status}）；请在 {file} 中设置模型 {name} 的 api_key_env',
  'cli.endpoint.notFound':
    '模型 {name}：找不到 {url}/models（HTTP 404）；请检查它在 {file} 中的 base_url',
  'cli.endpoint.noVersion':
    '模型 {name}：{host} 返回 HTTP 404：base_url {url} 没有以 /v1 结尾；请在 {file} 中加上（例如 {fixed}）',
  'cli.endpoint.http': '模型 {name}：{host} 返回 HTTP {status}（GET /models）：{why}',
  'cli.endpoint.notList':
    '模型 {name}：{host} 对 GET /models 的应答不是模型列表（{why}）；请检查它在 {file} 中的 base_url',
  'cli.stdout.failed':
    '无法写入标准输出（{cause}）；请在其去向处释放一些空间，或把输出改到别处（例如另一块磁盘上的 `> 文件`）',
  'cli.outFile.cannotWrite': '{flag} {path}：无法写入（{why}）',
  'cli.outFile.isFolder': '{path} 是一个目录；请给出其中的文件路径，例如 {example}',
  'cli.outFile.noNewFiles': '{dir} 不能创建新文件（ENOENT）；请选择普通目录中的路径',
  'cli.outFile.noFolder': '目录 {dir} 不存在；请创建它或选择其他路径',
  'cli.outFile.notFolder': '{dir} 是文件，不是目录；请选择其他路径',
  'cli.outFile.noPermission': '没有在 {dir} 中写入的权限（{code}）；请选择可写的路径',
  'cli.outFile.notRegular':
    '{path} 不是普通文件（而是命名管道、设备或套接字）；请给出普通文件的路径',
  'cli.outFile.diskFull': '磁盘已满（{code}）；请释放一些空间或选择其他磁盘',
  'cli.outFile.other': '{code}；请选择可写的路径',
  'cli.outFile.extension':
    '{flag} {path}：文件名以 {ext} 结尾，是 {kind} 文件，但 {by} 写出的是 {format}；请把文件命名为 {example}{alt}',
  'cli.outFile.extensionOr': '，或加上 {flag}',
  'cli.file.cannotRead': '{name}：无法读取（{why}）；请检查路径',
  'cli.file.noPermission': '{name}：无法读取（没有权限，{code}）；请检查该文件及其所在目录的权限',
  'cli.file.ofFlag': '{flag} {error}',
  'cli.file.noSuchFile': '没有这个文件',
  'cli.file.isFolder': '这是目录，不是文件',
  'cli.file.fileInPath': '路径中有一个文件',
  'cli.file.otherUnicode':
    '{name}:1：不是 UTF-8 文本：字节偏移 0（第 1 行第 1 个字节）以 {shown} 开头：该文件是 {encoding} 文本；没有从这个文件读取任何内容。请把它另存为 UTF-8（`iconv -f {encoding} -t UTF-8 {name} > converted`，或在编辑器中“另存为… UTF-8”）后重试。',
  'cli.file.notUtf8':
    '{name}:{line}：不是 UTF-8 文本：字节偏移 {offset}（第 {line} 行第 {column} 个字节）以 {shown} 开头，这不是有效的 UTF-8；没有从这个文件读取任何内容。请把它另存为 UTF-8（{example}）后重试。',
  'cli.file.cutShort':
    '{name}:{line}：不是 UTF-8 文本：字节偏移 {offset}（第 {line} 行第 {column} 个字节）以 {shown} 开头，这是一个不完整的 UTF-8 字符：文件在一个 UTF-8 字符的中间结束，看起来被截断了（例如下载或复制被中断）；没有从这个文件读取任何内容。请获取一份完整的文件后重试（转换编码无济于事）。',
  'cli.file.lineCutShort':
    '{name}:{line}：不是 UTF-8 文本：字节偏移 {offset}（第 {line} 行第 {column} 个字节）以 {shown} 开头，这是一个不完整的 UTF-8 字符：第 {line} 行在一个 UTF-8 字符的中间结束，看起来被截断了（例如下载、复制或写入被中断）；没有从这个文件读取任何内容。请获取一份完整的文件（或修复第 {line} 行）后重试（转换编码无济于事）。',
  'cli.file.gbkExample':
    '`iconv -f GB18030 -t UTF-8 {name} > converted`：这些字节按 GBK/GB18030 读是中文',
  'cli.file.latinExample':
    '例如 Latin-1 用 `iconv -f latin1 -t utf-8 {name} > converted`，GBK 中文用 `-f GB18030`',
  'cli.file.notText':
    '{name}:{line}：不是文本文件（含有 NUL 字节，第一个 NUL 在字节偏移 {offset}）；没有从这个文件读取任何内容。请给出 UTF-8 文本文件（JSON、JSONL 或 YAML）。',
  'cli.json.invalid': '{at}：不是有效的 JSON（{reason}）{hint}',
  'cli.json.hint': '；{hint}',
  'cli.json.reason': '{expected}，实际是{found}',
  'cli.json.expect.closeString': "应为用来结束字符串的 '{quote}'",
  'cli.json.expect.escapeControl':
    "应为 '{quote}' 或用 '{backslash}' 转义的字符（控制字符必须转义）",
  'cli.json.expect.hex': '\\u 后应为四位十六进制数字',
  'cli.json.expect.escape': '{backslash} 后应为 {escapes} 之一',
  'cli.json.expect.digit': '应为数字',
  'cli.json.expect.digitAfterPoint': "'.' 后应为数字",
  'cli.json.expect.digitExponent': '指数中应为数字',
  'cli.json.expect.value': '应为一个值',
  'cli.json.expect.valueKinds': '应为一个值（对象、数组、字符串、数字、true、false 或 null）',
  'cli.json.expect.keyOrClose': "应为双引号括起的字符串键或 '{close}'",
  'cli.json.expect.key': '应为双引号括起的字符串键',
  'cli.json.expect.colon': "键后应为 ':'",
  'cli.json.expect.commaOr': "应为 ',' 或 '{close}'",
  'cli.json.expect.end': '值之后应为文本结尾',
  'cli.json.expect.valid': '文本是有效的 JSON',
  'cli.json.found.end': '文本结尾',
  'cli.json.found.control': '控制字符 U+{code}',
  'cli.json.fixSyntax': '请修正该行的语法',
  'cli.json.oneAnnotation': '每行应为一个标注对象',
  'cli.json.eachLine': '每行应为 {shape}',
  'cli.json.eachLineLike': '每行必须是一个 JSON 对象，例如 {example}',
  'cli.problems.more': '……另有 {more} 个问题（共 {total} 个）',
  'cli.problems.also': '（另有 {n} 行也是如此：第 {shown} 行{more}）',
  'cli.problems.alsoMore': '，以及另外 {n} 行',
  'cli.outputs.answerString': '必须是字符串（模型的回答）',
  'cli.outputs.outputTooLong': '超过 {outputMax} 个字符',
  'cli.outputs.nonEmpty': '必须是非空字符串',
  'cli.outputs.promptTooLong': '超过 {promptMax} 个字符；请缩短它或删除这一行',
  'cli.outputs.keyTooLong': '超过 {keyMax} 个字符；请用更短的键',
  'cli.outputs.itemId': '必须是非空字符串或整数 id',
  'cli.outputs.missing': '缺失',
  'cli.outputs.issue': '`{key}` {msg}',
  'cli.outputs.sep': '；',
  'cli.list.sep': '、',
  'cli.outputs.notText': '{at}：不是文本文件（含有 NUL 字节）；应为 UTF-8 编码的 JSON',
  'cli.outputs.battles':
    '{at}：这看起来是竞技场对战记录（{shape}），不是模型输出；请用 `zhujiu import battles {file}` 导入',
  'cli.outputs.pairCounts':
    '{at}：这看起来是竞技场对战记录（{shape}），不是模型输出；请用 `zhujiu ratings --battles {file}` 计算评分',
  'cli.outputs.arrayAsJsonl':
    '{at}：这是一个 JSON 数组，不是每行一个对象；请使用 --format alpaca_eval',
  'cli.outputs.emptyJsonl': '{at}：文件是空的；应为每行一个 JSON 对象',
  'cli.outputs.emptyArray': '{at}：文件是空的；应为由 {shape} 组成的 JSON 数组',
  'cli.outputs.csv':
    '{at}：这看起来是 CSV 表格，不是 JSON；zhujiu 读取 AlpacaEval JSON（由 {alpaca} 组成的数组），或者在 --format jsonl 下读取每行一个 {jsonl} 对象：请把表格转换成其中一种',
  'cli.outputs.looksJsonl':
    '{at}：这看起来是 JSON Lines（每行一个对象），不是 JSON 数组：请加上 --format jsonl',
  'cli.outputs.notArray':
    '{at}：应为由 {shape} 组成的 JSON 数组（AlpacaEval 的 model_outputs.json）；每行一个对象的文件请使用 --format jsonl',
  'cli.outputs.element': '{at}：元素 {i}：{issue}',
  'cli.outputs.rowIssues': '{at}：{issues}',
  'cli.outputs.instructionTwice':
    '{at}：指令“{text}”重复出现（第一次在第 {prev} 行）；每条指令只保留一个回答',
  'cli.outputs.itemTwice':
    '{at}：题目“{key}”重复出现（第一次在第 {prev} 行）；每道题只保留一个回答',
  'cli.outputs.noRows': '{at}：没有找到任何行',
  'cli.outputs.folder': '{file}：这是目录，不是文件；其中有 {hints}',
  'cli.outputs.folderNoHint': '{file}：这是目录，不是文件；请给出模型输出文件本身',
  'cli.outputs.emptyJsonlName':
    '{at}：文件是空的；应为由 {shape} 组成的 JSON 数组（默认的 --format alpaca_eval）；每行一个 {jsonl} 对象的 .jsonl 文件请加上 --format jsonl',
  'cli.outputs.rowIssue': '这一行{msg}',
  'cli.gaokao.notFolder':
    '{dir}：这是文件，不是目录；--format gaokao 读取的是 GAOKAO-Bench 结果目录（每个关键词一个 JSON 文件）{what}',
  'cli.gaokao.fileIs': '；这个文件是 {words}：`{cmd}`',
  'cli.gaokao.outputsFile': '；模型输出文件请用 --format alpaca_eval 或 --format jsonl',
  'cli.gaokao.cannotRead':
    '{dir}：无法读取该目录（{code}）；请给出 GAOKAO-Bench 结果目录（每个关键词一个 JSON 文件）',
  'cli.gaokao.noFiles':
    '{dir}：没有 .json 结果文件；应为 GAOKAO-Bench 客观题结果，例如 <model>_2010-2022_Physics_MCQs.json',
  'cli.labels.takes': 'judge agree 读取 {shape} 组成的 JSON Lines',
  'cli.labels.looksLike': '{at}：这看起来是 {what}；{takes}',
  'cli.labels.oneDocument': '{at}：这是一整个 JSON 文档，不是每行一个对象；{takes}',
  'cli.labels.battles':
    '竞技场对战（{shape}）；请用 `zhujiu ratings --battles {file}` 计算评分，或用 `zhujiu import battles {file}` 导入',
  'cli.labels.pairCounts':
    '竞技场配对计数（{shape}）；请用 `zhujiu ratings --battles {file}` 计算评分',
  'cli.labels.outputs':
    '模型输出（由 {shape} 组成的 JSON 数组）；请用 `zhujiu import outputs {file} --model NAME` 导入',
  'cli.labels.outputsJsonl':
    '模型输出（{shape}）；请用 `zhujiu import outputs {file} --model NAME --format jsonl` 导入',
  'cli.labels.annotations':
    'AlpacaEval 标注（{shape}）；请用 `zhujiu import judgments {file} --format alpaca_eval --judge NAME` 导入',
  'cli.judgments.noFilesBut': '{path}：这个目录中没有这种格式的 *{ext} 文件，但有 {hints}',
  'cli.judgments.noFiles':
    '{path}：这个目录中没有 *{ext} 文件；请给出存放评审文件的目录，或其中一个文件',
  'cli.judgments.cannotReadFolder': '{path}：无法读取这个目录（{code}）；请检查它的权限',
  'cli.judgments.otherKindOne':
    '{file}：这看起来是 {words}，不是 --format {format} 的评审；请用 `{cmd}` 导入',
  'cli.judgments.otherKindMany':
    '{n} 个文件（{file}，…）看起来是 {words}，不是 --format {format} 的评审；请用 `{cmd}` 导入它们',
  'cli.folderHint.kind': '{n} 个 {words}（{files}）：`{cmd}`',
  'cli.fileKind.gaokao_judged': 'GAOKAO-Bench 主观题评审文件',
  'cli.fileKind.gaokao_human': 'GAOKAO-Bench 人工评分结果文件（教师评分）',
  'cli.fileKind.gaokao_objective': 'GAOKAO-Bench 客观题结果文件（模型答案，不是评审）',
  'cli.fileKind.alpaca_annotations': 'AlpacaEval 标注文件',
  'cli.fileKind.alpaca_outputs': 'AlpacaEval 模型输出文件（不是评审）',
  'cli.fileKind.outputs_jsonl': '模型输出文件（{shape}；不是评审）',
  'cli.fileKind.battles': '竞技场对战文件',
  'cli.fileKind.labels': '{shape} 标签文件',
  'cli.fileKind.unknown': 'zhujiu 不导入的文件',
  'cli.json.found.char': "字符 '{char}'",
  'cli.dataset.folder': '数据集目录',
  'cli.dataset.cache': '数据集缓存',
  'cli.dataset.symlink':
    '（有符号链接指向它之外；如要允许，请把链接的目标目录写进 ZHUJIU_DATASETS_ROOTS）',
  'cli.dataset.outside':
    '数据集路径“{spec}”不在{what} {root} 之内{symlink}；请把文件放进这个目录，并给出相对于它的路径（ZHUJIU_DATASETS_DIR 设置这个目录）',
  'cli.dataset.downloadFailed':
    '{url}：下载失败（{why}）；请检查 URL 和网络，或者手动下载后给出本地路径',
  'cli.dataset.downloadHttp': '{url}：下载失败，HTTP {status}；请检查 URL',
  'cli.dataset.checksum':
    '{url}：校验和不符：sha256 是 {actual}，评测套件要求 {expected}；文件在上游改变了，或者校验和写错了（没有缓存任何内容）',
  'cli.dataset.noFile':
    '{path}：没有这个文件（数据集目录 {dir}）；请把数据集文件放到那里，或者把 ZHUJIU_DATASETS_DIR 设为存放它们的目录',
  'cli.dataset.where': '评测套件 {suite} 的数据集 {dataset}',
  'cli.dataset.profile': '{where}：profile “{profile}”不是 {profiles} 之一（loader {loader}）',
  'cli.dataset.baseDiffers':
    '{where}：base “{base}”与评测套件前面同名的 base 不同；请给出相同的条目，或者换一个名称',
  'cli.dataset.robustNeeds': '{where}：鲁棒性数据集需要 `task:` 和 `base:`',
  'cli.dataset.problem': '{where}：{message}',
  'cli.dataset.noLoader': '{where}：没有 `loader:`；只有带 loader 的指标数据集才能准备',
  'cli.dataset.metric':
    '{where}：metric “{metric}”与 loader {loader} 不符（它的 metric 是 {its}）；请删除 `metric:` 或改正它',
  'cli.dataset.gaokaoPrompts':
    '{where}：gaokao loader 需要 `prompts:`（GAOKAO-Bench 的 Obj_Prompt.json）',
  'cli.dataset.badRows': '{where}：有 {n} 行有问题；请改正或删除它们：\n{rows}{more}',
  'cli.dataset.noItems':
    '{where}：它的文件（{files}）中没有任何题目；请指定正确的文件，或把题目放进去（文件是空的吗？）',
  'cli.dataset.moreRows': '\n（另有 {n} 行）',
  'cli.dataset.shots':
    '{where}：shots {shots} 需要样本之外的 {shots} 行，但只剩 {left} 行；请减小 `shots:` 或 `sample:`',
  'cli.dataset.storedOnly': '{where}：只有零样本、包含全部题目的数据集才能在已存储的题目上运行',
  'cli.dataset.cacheUnwritable':
    '无法写入数据集缓存目录 {dir}（{why}；由环境变量 ZHUJIU_DATASETS_CACHE 设置；默认是工作目录下的 data/datasets-cache）；请把 ZHUJIU_DATASETS_CACHE 设为可写的目录',
  'cli.dataset.cacheUnderFile': '{file} 是文件，不是目录：ENOTDIR',
  'cli.outFile.unknown': '未知错误',
  'cli.serve.started': 'zhujiu {kind}：数据在 {db}{logs}{health}',
  'cli.serve.logs': '；日志在 {file}',
  'cli.serve.health': '；健康检查在 {url}',
  'cli.battles.format': '`import battles` 读取 JSON Lines，每行一个 {shape} 对象',
  'cli.battles.names': '`model_a` 和 `model_b` 必须是非空字符串（模型名称）',
  'cli.battles.badName': '{problems}；请修正文件中的模型名称（或删除这一行）',
  'cli.battles.self': '自己对战自己：`model_a` 和 `model_b` 都是“{name}”；请删除这一行',
  'cli.battles.pairCounts':
    '这是一行配对计数；`import battles` 每行读取一场对战 {shape}（配对计数可以直接用 `zhujiu ratings --battles FILE` 计算评分）',
  'cli.battles.noWinner': '缺少 `winner`；请使用 `model_a`、`model_b`、`tie` 或 `tie (bothbad)`',
  'cli.battles.badWinner':
    '未知的 `winner` {winner}；请使用 `model_a`、`model_b`、`tie` 或 `tie (bothbad)`',
  'cli.battles.anony': '`anony` 必须是 true 或 false，实际是{got}；请删除它或修正这一行',
  'cli.battles.outputsJsonl':
    '{at}：这看起来是模型输出（由 {shape} 组成的 JSON Lines），不是对战记录；请用 `zhujiu import outputs {file} --model NAME --format jsonl` 导入',
  'cli.battles.outputsArray':
    '{at}：这看起来是模型输出（由 {shape} 组成的 JSON 数组），不是对战记录；请用 `zhujiu import outputs {file} --model NAME` 导入',
  'cli.battles.problem': '{at}：{msg}',
  'cli.battles.notText': '不是文本行（含有 NUL 字节）；应为 UTF-8 编码的 JSONL',
  'cli.battles.notObject': '应为一个对象 {shape}',
  'cli.battles.array': '{at}：这是一个 JSON 数组；{format}',
  'cli.battles.none': '{at}：文件中没有对战；{format}',
  'cli.battles.reserved':
    '--source “{source}”{from} 保留给通过机器人投出的票；请给导入的投票起一个自己的名称，例如 --source lmsys-2023',
  'cli.battles.fromFileName': '（取自文件名）',
  'cli.battles.notFile': '{file}：不是文件；请给出对战记录 JSONL 文件的路径',
  'cli.battles.misspeltKey': '未知的键“{key}”（你是不是想写“{want}”？）；请把它改名为 `{want}`',
  'cli.battles.csv':
    '{at}：这看起来是 CSV 表格，不是 JSON Lines；{format}：请把表格转换为每行一个对象',
  'cli.battles.notJsonl': '{at}：{file} 不是 JSON Lines 文件（它的第一行不是 JSON）；{format}',
  'cli.battles.abilityDiffers':
    '来源“{source}”已存有 {n} 场导入的对战（{stored}），但这次导入设定的是{given}；一个来源只有一种能力，已存的行会被跳过，所以什么也不会改变。请用 {flag} 重新导入，或用 --source NAME 给这些对战一个单独的来源',
  'cli.battles.ofAbility': '能力为“{ability}”',
  'cli.battles.noAbility': '没有能力',
  'cli.battles.withoutFlag': '不带 --ability 的命令',
  'cli.battles.otherFile':
    '{at}：来源“{source}”在这一行已经存有另一场对战：这是同一来源名称下的另一个文件（或改动过的文件）；请用它自己的 --source NAME 导入',
  'cli.ratingsLine.at': '{source}:{line}：{msg}',
  'cli.ratingsLine.nothing': '空值',
  'cli.ratingsLine.nameNotString': '`{key}` 必须是非空字符串（模型名称），实际是{got}',
  'cli.ratingsLine.badName': '`{key}` “{name}”{problem}',
  'cli.ratingsLine.array':
    '这是一个 JSON 数组；对战记录是 JSON Lines，每行一个对象，例如 {example}{outputs}',
  'cli.ratingsLine.arrayOutputs':
    '（由 {shape} 组成的 JSON 数组是模型输出：`zhujiu import outputs {source} --model NAME`）',
  'cli.ratingsLine.notObject': '应为一个 JSON 对象，例如 {example}',
  'cli.ratingsLine.outputs':
    '这看起来是模型输出，不是对战记录；请用 `zhujiu import outputs {source} --model NAME{jsonl}` 导入',
  'cli.ratingsLine.neither':
    '既不是一场对战（需要 `winner`，例如 {battle}），也不是配对计数（需要 `model_a_wins`，例如 {pair}）',
  'cli.ratingsLine.battleInPairs':
    '配对计数文件中有一行对战（文件类型在第 {first} 行确定）；请把两种记录分别放在各自的文件中',
  'cli.ratingsLine.pairInBattles':
    '对战文件中有一行配对计数（文件类型在第 {first} 行确定）；请把两种记录分别放在各自的文件中',
  'cli.ratingsLine.self': '自己对战自己：“{name}”对战它自己；model_a 和 model_b 必须不同',
  'cli.ratingsLine.noWinner':
    '缺少 `winner`；请使用 `model_a`、`model_b`、`tie`、`tie (bothbad)` 之一',
  'cli.ratingsLine.badWinner':
    '未知的 `winner` {winner}；请使用 `model_a`、`model_b`、`tie`、`tie (bothbad)` 之一',
  'cli.ratingsLine.anony': '`anony` 必须是 true 或 false，实际是{got}；请删除它或修正这一行',
  'cli.ratingsLine.count': '`{key}` 必须是非负整数，实际是 {got}',
  'cli.styleLine.notJson': '不是有效的 JSON（{detail}）；请每行写一个对战对象',
  'cli.styleLine.notObject': '不是 JSON 对象；请每行写一个对战对象',
  'cli.styleLine.name': '`{key}` 必须是非空字符串（模型名称）',
  'cli.styleLine.same': 'model_a 和 model_b 是同一个模型；一场对战需要两个模型',
  'cli.styleLine.winner': '`winner` 必须是 {winners} 之一',
  'cli.styleLine.metaObject': '`conv_metadata` 必须是对象',
  'cli.styleLine.metaField':
    'conv_metadata.{field} 必须是 ≥ 0 的整数或由这样的整数组成的对象（FastChat 的风格字段）；请用 `zhujiu export battles --format fastchat` 重新导出',
  'cli.styleLine.noMetadata':
    '{source}：没有一行对战带有 conv_metadata（回答的风格统计），风格控制无从拟合；请用 `zhujiu export battles --format fastchat` 导出回答已存储的对战，或去掉 --style-control 计算评分',
  'cli.battles.emptyInput':
    '{source}：输入为空（{n} 行，都没有数据）；请每行给出一场对战，例如 {example}',
  'cli.battles.allNamed':
    '{source}：全部 {n} 场对战都标记为 `"anony": false`（投票者看到了模型名称），评分不计入它们；要计入请加 --include-named',
  'cli.battles.conflict':
    '投票 `{identity}` 也出现在第 {line} 行，但结果不同：那里是 `{there}`，这里是 `{here}`。一票只有一个结果：请删除错误的那一行，然后重试',
  'cli.files.csv': '{at}：这看起来是 CSV 表格，不是 JSON；{format}：请先转换表格',
  'cli.files.notJson': '{at}：这不是 JSON（它既不以对象开头，也不以数组开头）；{format}',
  'cli.files.labelsFormat': '`zhujiu judge agree` 读取每行一个 {shape} 的 JSON Lines',
  'cli.files.alpacaFormat':
    '`zhujiu import judgments --format alpaca_eval` 读取 AlpacaEval 评注的 JSON Lines（{shape}）',
  'cli.files.gaokaoFormat':
    '`zhujiu import judgments --format gaokao` 读取 GAOKAO-Bench 的评审结果文件（每个文件一个 JSON 文档）',
  'cli.files.gaokaoHumanFormat':
    '`zhujiu import judgments --format gaokao-human` 读取 GAOKAO-Bench 的教师评分文件（每个文件一个 JSON 文档）',
  'cli.rows.at': '{at}：{reason}',
  'cli.rows.join': '{a}；{b}',
  'cli.rows.issue': '`{key}` {msg}',
  'cli.rows.lines': '{a}\n{b}',
  'cli.rows.ocnliLabel': '`label` 必须是 entailment、neutral、contradiction 或 -，实际是“{label}”',
  'cli.rows.chidBlank': '必须含有空位 #idiom#',
  'cli.rows.notIndex': '`answer` {answer} 不是“{list}”的下标（共 {n} 项）',
  'cli.rows.c3Array': '应为由 [sentences, questions, id] 组成的 JSON 数组（C3 格式）',
  'cli.rows.c3Document': '文档 {doc}：{issues}',
  'cli.rows.c3Question': '文档 {doc} 问题 {n}：{issue}',
  'cli.rows.c3Answer': '`answer` 不在 `choice` 中',
  'cli.rows.gaokaoPrompts': '不是 GAOKAO-Bench 的 Obj_Prompt.json（{shape}）',
  'cli.rows.gaokaoDataset':
    '关键词 {keyword} 属于数据集 {dataset}，不属于 {given}；请把文件移到那个数据集',
  'cli.rows.gaokaoPrefix': '提示文件中没有关键词 {keyword} 的前缀提示；请补上，或修正 `prompts:`',
  'cli.rows.knowledgeElements': 'completeness 行需要 `elements`',
  'cli.rows.knowledgeVariants': 'robustness 行需要 `variants`（各种问法）',
  'cli.rows.knowledgeAnswers': '`answers` 为空：请给出可接受的答案',
  'cli.rows.math23kAns': '`ans` 的值{ans}不是数字、{percent}、{fraction} 或由它们组成的算式',
  'cli.rows.itemTwice': '题目“{key}”已出现在 {prev}',
  'cli.rows.noOption': '`answer` {answer} 没有对应的选项（共 {n} 个选项）',
  'cli.rows.oneAnswer': '至少需要一个参考答案',
  'cli.rows.squad': '不是 SQuAD 格式的 JSON {shape}：{issues}',
  'cli.rows.emptyAnswers': '问题 {id}：所有参考答案都是空的',
  'cli.rows.idRepeats': '问题 id {id} 与前面的重复',
  'cli.rows.gaokaoLetters': '必须是选项字母 A-G',
  'cli.rows.gaokaoFile': '不是 GAOKAO-Bench 客观题文件：应为 {shape}',
  'cli.rows.gaokaoKeyword': '缺少 `keyword`/`keywords`',
  'cli.rows.gaokaoUnknownKeyword': '未知的客观题关键词“{keyword}”；应为以下之一：{keywords}',
  'cli.rows.gaokaoExample': '示例 {i}：{reason}',
  'cli.rows.gaokaoIssue': '`{key}` {msg}',
  'cli.rows.gaokaoAnswer': '缺少 `answer`（或 `standard_answer`）',
  'cli.rows.gaokaoOutput': '缺少 `model_output`；这不是模型输出的结果文件',
  'cli.rows.gaokaoRepeat': 'index {index} 与第 {line} 行的 example 重复',
  'cli.rows.topLevel': '（顶层）',
  'cli.rows.judgedFile': '{file}：{path}：{msg}；应为 GAOKAO-Bench 主观题评审文件 {shape}',
  'cli.rows.judgedTwice': '{index} 出现了两次；每道题只能出现一次',
  'cli.rows.humanNoKeyword': '缺少 `keyword`',
  'cli.rows.humanFile': '{at}：{path}：{msg}；应为 GAOKAO-Bench 人工评分结果文件 {shape}',
  'cli.rows.humanNoModel':
    '{at}：没有 `model_name`，文件名也不是 <model>_{keyword}.json；请在文件中加上 `model_name`，或按上游的方式命名文件',
  'cli.rows.labelsItem': '`item` 必须是非空字符串或整数',
  'cli.rows.labelsLabel': '`label` 必须是数字或非空字符串',
  'cli.rows.labelsTwice': '题目“{item}”已在第 {prev} 行标注过；每道题只保留一个标签',
  'cli.rows.labelsNone': '{at}：没有标签；应为每行一个 {shape}',
  'cli.rows.annBaseline': '必须写明基准模型',
  'cli.rows.annModel': '必须写明被评审的模型',
  'cli.rows.annPreference':
    '必须在 [1, 2] 之间（1 表示基准模型更好，2 表示被评审模型更好，1.5 或 0 表示平局）或为 null',
  'cli.rows.annSelf': 'generator_1 和 generator_2 都是“{model}”；模型不能与自己比较',
  'cli.rows.annShape': '{at}：应为由标注对象组成的 JSON 数组，或每行一个对象',
  'cli.rows.annTwice':
    '{model} 对 {baseline} 的同一条指令被重复评审（第一次在第 {prev} 行）；请只保留一条',
  'cli.rows.annNone': '{at}：没有找到任何标注',
  'cli.rows.humanTwice':
    '{file}：{model} 的 {keyword} 也在 {other} 中；请一次导入一次运行的结果（每次运行一个目录）',
  'cli.rows.modelFromFile':
    '{at}：模型“{model}”（取自文件）{problem}；请在文件中加上有效的 `model_name`',
  'cli.rows.judgeDiffers':
    '{at}：{key} 是“{named}”，但 --judge 是“{judge}”；请使用 --judge {named}',
  'cli.rows.nameInFile': '{at}：`{key}` “{model}”{problem}；请在文件中修正',
  'cli.rows.annTwiceFiles':
    '{path}：{model} 对 {baseline} 在同一条指令上被评审了两次（后一个文件的第 {line} 行）；每个模型请只导入一个标注文件',
  'cli.rows.keywordTwice': '{at}：关键词 {keyword} 也在 {other} 中；每个关键词只保留一个文件',
  'cli.rows.modelDiffers':
    '{at}：`model_name` 是“{named}”，但 --model 是“{model}”；请使用 --model {named}，或导入正确的目录',
  'cli.rows.promptDiffers':
    '{at}：题目“{key}”已在数据集“{dataset}”中，但提示不同；请换一个键，或导入到另一个 --dataset',
  'cli.known.model':
    '{flag} {name}：没有这个模型：{models} 和已存储的数据中都没有它；已有的模型：{list}{meant}',
  'cli.known.judge':
    '{flag} {name}：没有这个评审模型：{models} 和已存储的评分中都没有它；已有的评审模型和模型：{list}{meant}',
  'cli.known.dataset':
    '{flag} {name}：没有这个数据集：{suites} 中没有套件列出它，也没有存储它；已有的数据集：{list}{meant}',
  'cli.known.meant': '。你是不是想输入“{name}”？',
  'cli.files.ratingsFormat':
    '`zhujiu ratings --battles` 读取每行一个对战 {battles} 或成对计数 {pairs} 的 JSON Lines',
  'cli.sources.meant': '你是不是想输入“{name}”？',
  'cli.zod.missing': '缺失：应为{expected}',
  'cli.zod.type': '应为{expected}，实际是{received}',
  'cli.zod.typeValue': '应为{expected}，实际是 {value}',
  'cli.zod.wholeNumber': '必须是整数，实际是 {value}',
  'cli.zod.is': '应为{value}',
  'cli.zod.oneOf': '应为以下之一：{values}',
  'cli.zod.or': '或',
  'cli.zod.text.empty': '不能为空',
  'cli.zod.text.min': '太短：至少 {n} 个字符',
  'cli.zod.text.max': '太长：最多 {n} 个字符',
  'cli.zod.text.exact': '长度必须正好是 {n} 个字符',
  'cli.zod.list.empty': '不能为空：至少要有一项',
  'cli.zod.list.min': '项数太少：至少 {n} 项',
  'cli.zod.list.max': '项数太多：最多 {n} 项',
  'cli.zod.list.exact': '必须正好有 {n} 项',
  'cli.zod.bytes.min': '太小：至少 {n} 字节',
  'cli.zod.bytes.max': '太大：最多 {n} 字节',
  'cli.zod.bytes.exact': '大小必须正好是 {n} 字节',
  'cli.zod.number.min': '不能小于 {n}',
  'cli.zod.number.minStrict': '必须大于 {n}',
  'cli.zod.number.max': '不能大于 {n}',
  'cli.zod.number.maxStrict': '必须小于 {n}',
  'cli.zod.number.exact': '必须等于 {n}',
  'cli.zod.date.min': '不能早于 {n}',
  'cli.zod.date.minStrict': '必须晚于 {n}',
  'cli.zod.date.max': '不能晚于 {n}',
  'cli.zod.date.maxStrict': '必须早于 {n}',
  'cli.zod.format.startsWith': '必须以{text}开头',
  'cli.zod.format.endsWith': '必须以{text}结尾',
  'cli.zod.format.includes': '必须包含{text}',
  'cli.zod.format.regex': '格式不对（应符合模式 {pattern}）',
  'cli.zod.format.url': '必须是网址（URL），例如 https://example.com/',
  'cli.zod.format.other': '不是有效的 {format}',
  'cli.zod.multipleOf': '必须是 {n} 的倍数',
  'cli.zod.unknownKeys': '出现 {n} 个未知的键：{keys}',
  'cli.zod.invalidKey': '有此处无效的键',
  'cli.zod.invalidElement': '有此处无效的值',
  'cli.zod.union': '不符合此处可用的任何一种写法',
  'cli.zod.invalid': '无效',
  'cli.zod.type.string': '字符串',
  'cli.zod.type.number': '数字',
  'cli.zod.type.int': '整数',
  'cli.zod.type.nan': '非数字（NaN）',
  'cli.zod.type.boolean': '布尔值（true 或 false）',
  'cli.zod.type.bigint': '整数',
  'cli.zod.type.symbol': '符号',
  'cli.zod.type.undefined': '空缺',
  'cli.zod.type.null': '空值（null）',
  'cli.zod.type.date': '日期',
  'cli.zod.type.array': '列表',
  'cli.zod.type.object': '对象',
  'cli.zod.type.tuple': '列表',
  'cli.zod.type.record': '对象',
  'cli.zod.type.map': '映射',
  'cli.zod.type.set': '集合',
  'cli.zod.type.file': '文件',
  'cli.zod.type.function': '函数',
  'cli.rating.tooManyModels': '模型超过 1,048,576 个',
  'cli.rating.selfBattle': '自己对战自己：“{model}”对战它自己',
  'cli.rating.noBattles': '没有对战：输入中没有对战行，也没有成对计数行',
  'cli.rating.badPairCount':
    '成对计数第 {row} 行（{a} 对 {b}）：{key} 必须是非负整数，实际是 {value}',
  'cli.rating.fewerThanTwo':
    '能评分的模型少于两个（{n} 个）；被排除的：{excluded}。请增加模型之间的对战。',
  'cli.rating.excludedNone': '无',
  'cli.rating.excludedModel': '{model}（{reason}，{n} 票）',
  'cli.rating.anchorUnrated': '锚定模型“{model}”没有有限的评分（{reason}）；请另选一个锚定模型',
  'cli.rating.anchorNotFinite': '锚定评分必须是有限的数，实际是 {rating}',
  'cli.rating.anchorNoBattles':
    '锚定模型“{model}”在数据中没有对战；请从数据中的模型里另选一个，或去掉锚定',
  'cli.rating.notConnected':
    '以下模型没有有限的 Bradley–Terry 评分：{excluded}；比较图必须强连通（每个模型都要经由某条链既胜过或战平其他模型，又输给或战平其他模型）。请增加对战，或去掉这些模型。',
  'cli.agree.noPairs': '没有两位标注者都标注过的题目',
  'cli.agree.orderTwice': '--order 把某个标签列了两次',
  'cli.agree.notInOrder':
    '{n, plural, other {标签}}{labels}不在 --order（{order}）中；请列出每一个标签',
  'cli.eval.judgeNotConfigured':
    'judge.model “{judge}”（{default}）不在 {models} 中；请把它加进去，或修改 judge.model',
  'cli.datasets.noPackage': '数据包“{name}”没有安装；请在 zhujiu 目录中运行 `npm ci`',
  'cli.llm.keyMissing':
    '模型 {model}：{reason}。请导出它，例如 `export {variable}=...`；如果端点不需要密钥，也可以删除 api_key_env。',
  'cli.serve.portInUse':
    '健康检查和指标端口 {where} 已被占用（另一个 zhujiu 进程？）：请给每个进程单独的 PORT，或者设 PORT=0 不启动健康检查服务',
  'cli.serve.cannotListen':
    '无法在 {where} 上监听（{code}）：请检查 ZHUJIU_HTTP_HOST / http.host 和 PORT / http.port',
  'cli.log.cannotOpen':
    'LOG_FILE：无法打开日志文件 {file}（{why}）；请把 LOG_FILE 设为可写的文件，或者设 LOG_FILE=- 把日志写到标准错误输出',
  'cli.log.isFolder': '它是一个目录',
  'cli.log.fileInPath': '它所在的目录路径中有一部分是文件',
  'cli.log.noPermission': '没有权限，{code}',
  'cli.upgrade.notDb':
    '{dir} 不是嵌入式数据库目录（没有 PG_VERSION 文件）：没有可升级的内容。请检查 ZHUJIU_DATA_DIR。',
  'cli.upgrade.otherVersion':
    '{dir} 中的嵌入式数据库由 PostgreSQL {made} 创建；这个 zhujiu 只能把 PostgreSQL {old} 的目录（PGlite 0.4）升级到 {new}。请用创建它的 zhujiu 打开它。',
  'cli.upgrade.cannotOpen':
    '无法用 PostgreSQL {old}（PGlite 0.4）打开 {dir}：{detail}。该目录保持原样。',
  'cli.upgrade.otherSchemas':
    '{dir} 中有 public 模式之外的表（{tables}），升级不会带上它们；该目录保持原样。请先把其中的数据导出。',
  'cli.upgrade.newer':
    '{dir} 中有这个 zhujiu 不认识的迁移（{names}）：它由更新版本的 zhujiu 创建。请用那个版本升级；该目录保持原样。',
  'cli.upgrade.lostTables':
    '旧目录中有它的迁移不会创建的表（{tables}）：升级会丢失它们，因此已停止；旧目录保持原样。',
  'cli.upgrade.columns':
    '执行相同的迁移后，表 {table} 在旧目录中的列是 {old}，在新目录中是 {new}；升级已停止，旧目录保持原样。',
  'cli.upgrade.rows':
    '表 {table} 在旧目录中有 {before} 行，复制后有 {after} 行；升级已停止，旧目录保持原样。',
  'cli.upgrade.failed':
    '升级 {dir} 失败：{detail}。旧目录保持原样；排除原因后请再次运行 `zhujiu migrate --upgrade-data-dir`。',
  'cli.cause.with': '{phrase}，{detail}',
  'cli.cause.connection': '连接出错',
  'cli.cause.refused': '连接被拒绝',
  'cli.cause.reset': '连接被重置',
  'cli.cause.hostNotFound': '找不到该主机名',
  'cli.cause.dnsAgain': '主机名暂时无法解析',
  'cli.cause.timedOut': '超时',
  'cli.cause.hostUnreachable': '主机不可达',
  'cli.cause.netUnreachable': '网络不可达',
  'cli.cause.addressInUse': '地址已被占用',
  'cli.cause.addressNotAvailable': '地址不可用',
  'cli.cause.aborted': '请求已中止',
  'cli.cause.noPermission': '没有权限',
  'cli.cause.noSuchFile': '文件或目录不存在',
  'cli.cause.readOnly': '文件系统只读',
  'cli.cause.diskFull': '磁盘空间不足',
  'cli.cause.isFolder': '是目录，不是文件',
  'cli.cause.fileInPath': '路径中有一部分是文件',
  'cli.cause.exists': '已存在',
  'cli.cause.tooManyFiles': '打开的文件太多',
  'cli.cause.busy': '正在被占用',
  'cli.cause.notEmpty': '目录不是空的',
  'cli.cause.linkLoop': '符号链接层数过多',
  'cli.cause.nameTooLong': '名称过长',
  'cli.cause.io': '输入输出错误',
  'cli.judge.overMaxItem': '{key}（{credit}/{score} 分）',
  'cli.judge.failedItem': '{item}（{why}）',
  'cli.datasets.source': '{package}@{version}（{licence}）',
  'cli.item.label': '{dataset} “{key}”{prompt}',
  'cli.item.prompt': '（“{head}”）',
  'cli.item.id': '编号 {id}',
  'cli.db.tookOver': '已接管嵌入式数据库的过期锁（{why}；此前由{owner}持有）',
  'cli.db.stale.earlier': '这是旧版本留下的锁文件，它的进程已不在',
  'cli.db.stale.ownPid': '它记录的是本进程自己的 pid，重启的容器会复用 pid',
  'cli.db.stale.reused': 'pid {pid} 现在属于另一个程序',
  'cli.db.stale.gone': 'pid {pid} 已不在运行',
  'cli.db.stale.notRefreshed': '它超过过期时间没有刷新',
  'cli.db.lockLost': '嵌入式数据库的锁丢失了（进程停顿太久？）；请停止这个进程',
  'cli.db.templateUnusable':
    '预先准备的嵌入式数据库无法使用，改为新建一个（较慢）。运行 `npm run build` 可以重新生成它',
  'cli.start.modelDisabledLog': '模型已停用：{warning}',
  'cli.start.classifierDisabled':
    'arena.ask.classifier_model “{name}”已停用：/ask 中未标注能力的提问不会被分类',
  'cli.start.voterSecretGenerated':
    '未设置 ZHUJIU_VOTER_SECRET：已为这个数据目录生成投票者 id 的密钥',
};
