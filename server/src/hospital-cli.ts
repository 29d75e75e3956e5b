import { parseArgs } from 'node:util'
import { SAMPLE_BOUNDARY, writeSampleStudy } from './domain/demo-records'
import { ConfigError, loadConfig } from './config'
import { createDatabase } from './db'
import { ApiError } from './http/errors'
import { setSecretKey } from './domain/identity'
import { issueHospitalKey, listHospitalKeys, revokeHospitalKey } from './domain/hospitals/api-keys'
import { addHospital, listHospitalRecords } from './domain/hospitals/hospitals'

export const HOSPITAL_CLI_USAGE = `用法：npm run hospital -- <命令>
  add <医院名称> [--region 110101] [--region-name 北京市东城区] [--level 三级甲等]
                 [--province 省] [--city 市] [--address 地址] [--ai] [--demo]
                                 添加医院
  key <医院 id 或完整名称>        生成新的 API 密钥（只显示这一次）
  revoke <密钥前缀>               停用密钥（前缀见 list）
  list                            列出医院及其密钥
  sample <目录> [--name 姓名] [--id-number 身份证号]
                                 写出一份合成检查（DICOM、STOW-RS 请求体 stow.body、FHIR 报告
                                 report.json），默认属于演示患者，供 README 中的 curl 示例推送
使用与服务器相同的 DATABASE_URL（默认 data/app.sqlite）和 SECRET_KEY。`

/**
 * `npm run hospital -- …` (scripts/hospital.ts): the operator's tool for hospitals and their keys.
 * It reads the same configuration as the server: the same database, and the same SECRET_KEY, without
 * which the keys it issues would not verify on the server. Returns the exit code.
 */
export async function runHospitalCli(
  argv: string[],
  env: Record<string, string | undefined>,
  print: (line: string) => void,
  printError: (line: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        region: { type: 'string' },
        'region-name': { type: 'string' },
        level: { type: 'string' },
        province: { type: 'string' },
        city: { type: 'string' },
        address: { type: 'string' },
        ai: { type: 'boolean' },
        demo: { type: 'boolean' },
        name: { type: 'string' },
        'id-number': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    printError(`参数有误：${error instanceof Error ? error.message : String(error)}`)
    printError(HOSPITAL_CLI_USAGE)
    return 2
  }
  const [command, ...rest] = parsed.positionals
  const argument = rest.join(' ').trim()
  const needsArgument =
    command === 'add' || command === 'key' || command === 'revoke' || command === 'sample'
  if (
    parsed.values.help ||
    !command ||
    !['add', 'key', 'revoke', 'list', 'sample'].includes(command) ||
    (needsArgument && !argument)
  ) {
    ;(parsed.values.help ? print : printError)(HOSPITAL_CLI_USAGE)
    return parsed.values.help ? 0 : 2
  }

  if (command === 'sample') {
    // Files only: no database, no keys.
    const sample = await writeSampleStudy(argument, {
      name: parsed.values.name,
      idNumber: parsed.values['id-number'],
      now: now(),
    })
    print(`已写出合成检查（${sample.files.length} 个 DICOM 文件）：${argument}`)
    print(`StudyInstanceUID：${sample.studyUid}`)
    print(`检查号：${sample.accessionNumber}`)
    print(`STOW-RS 请求体：${sample.stowBody}（boundary=${SAMPLE_BOUNDARY}）`)
    print(`FHIR 报告：${sample.report}`)
    return 0
  }

  let config
  try {
    config = loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) {
      printError(error.message.replace('服务未启动', '未执行'))
      return 1
    }
    throw error
  }
  setSecretKey(config.secretKey)
  const database = createDatabase(config.database)
  try {
    await database.migrate()
    const db = database.db
    if (command === 'add') {
      const hospital = await addHospital(
        db,
        {
          name: argument,
          level: parsed.values.level,
          province: parsed.values.province,
          city: parsed.values.city,
          address: parsed.values.address,
          regionCode: parsed.values.region,
          regionName: parsed.values['region-name'],
          aiReporting: parsed.values.ai,
          demo: parsed.values.demo,
        },
        now(),
      )
      print(`已添加医院：${hospital.name}`)
      print(`id：${hospital.id}`)
      print(`生成密钥：npm run hospital -- key ${hospital.id}`)
    } else if (command === 'key') {
      const issued = await issueHospitalKey(db, argument, now())
      print(`已为 ${issued.hospital.name}（${issued.hospital.id}）生成 API 密钥：`)
      print('')
      print(`  ${issued.key}`)
      print('')
      print('密钥只显示这一次，服务器只保存其摘要，请立即妥善保存。')
      print(
        `调用时使用请求头：Authorization: Bearer <密钥>；停用：npm run hospital -- revoke ${issued.prefix}`,
      )
    } else if (command === 'revoke') {
      const revoked = await revokeHospitalKey(db, argument, now())
      print(
        revoked.alreadyRevokedAt
          ? `密钥 ${revoked.prefix}（${revoked.hospital.name}）已于 ${revoked.alreadyRevokedAt} 停用`
          : `已停用密钥 ${revoked.prefix}（${revoked.hospital.name}）`,
      )
    } else {
      const hospitals = await listHospitalRecords(db)
      const keys = await listHospitalKeys(db)
      if (hospitals.length === 0) print('还没有医院。添加：npm run hospital -- add <医院名称>')
      for (const hospital of hospitals) {
        const marks = [
          hospital.regionName ?? hospital.regionCode,
          hospital.level || undefined,
          hospital.aiReporting ? 'AI 报告' : undefined,
          hospital.demo ? '演示数据' : undefined,
        ].filter(Boolean)
        print(`${hospital.id}  ${hospital.name}${marks.length ? `（${marks.join('，')}）` : ''}`)
        for (const key of keys.filter((item) => item.hospitalId === hospital.id)) {
          const state = key.revokedAt
            ? `已停用 ${key.revokedAt}`
            : `有效，最近使用 ${key.lastUsedAt ?? '从未'}`
          print(`    密钥 ${key.prefix}…  创建 ${key.createdAt}  ${state}`)
        }
      }
    }
    return 0
  } catch (error) {
    if (error instanceof ApiError) {
      printError(error.userMessage)
      return 1
    }
    throw error
  } finally {
    await database.destroy()
  }
}
