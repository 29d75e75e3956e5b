import { REPORT_STATUSES } from '../../domain/reports/reports'

/** What this FHIR endpoint does, for clients that read /fhir/metadata before talking to it. */
export function capabilityStatement(base: string) {
  return {
    resourceType: 'CapabilityStatement',
    id: 'yingxiang-fhir',
    status: 'active',
    // The date of this statement's content; changes when what the endpoint accepts changes.
    date: '2026-11-23',
    publisher: '医影通',
    kind: 'instance',
    software: { name: '医影通 FHIR 报告接收服务' },
    implementation: { description: '医院推送影像检查报告（DiagnosticReport）', url: base },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        documentation:
          '医院以 DiagnosticReport 推送影像报告；同一报告标识（identifier）再次提交即为更新。已发布（final）的报告只能以 amended 或 corrected 修改，每个版本均保留。',
        security: {
          cors: false,
          description:
            '每家医院使用自己的 API 密钥：请求头 Authorization: Bearer <密钥>。只能读写本医院的报告。',
        },
        resource: [
          {
            type: 'DiagnosticReport',
            documentation: `status 可为 ${REPORT_STATUSES.join('、')}；患者身份证号只以密钥摘要保存，读取时以 data-absent-reason=masked 表示。`,
            interaction: [
              'read',
              'vread',
              'update',
              'create',
              'search-type',
              'history-instance',
            ].map((code) => ({ code })),
            versioning: 'versioned-update',
            readHistory: true,
            updateCreate: false,
            conditionalCreate: false,
            conditionalRead: 'not-supported',
            conditionalUpdate: false,
            conditionalDelete: 'not-supported',
            searchParam: [
              {
                name: 'identifier',
                type: 'token',
                documentation:
                  '报告标识（system|value 或 value）；只给 value 时也匹配检查号（ACSN）',
              },
              {
                name: 'patient.identifier',
                type: 'token',
                documentation: '患者居民身份证号（也可写作 subject.identifier）',
              },
              { name: 'status', type: 'token', documentation: '报告状态，逗号分隔表示“或”' },
              {
                name: 'date',
                type: 'date',
                documentation:
                  'effective 日期（医院当地日期，YYYY-MM-DD），可带 ge/gt/le/lt/eq 前缀，可重复',
              },
              { name: '_count', type: 'number', documentation: '每页条数，默认 20，最多 100' },
              { name: '_offset', type: 'number', documentation: '跳过的条数（翻页）' },
              {
                name: '_sort',
                type: 'string',
                documentation: 'date、issued、_lastUpdated，前加 - 为倒序；默认 -_lastUpdated',
              },
            ],
          },
        ],
      },
    ],
  }
}
