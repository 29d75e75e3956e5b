/**
 * WeChat's own code-quality check (miniprogram-ci's checkCodeQuality), run offline on dist/weapp:
 * main-package size, JS/WXSS/WXML minification, lazy code loading, image sizes, unused files.
 * It needs a key file to construct a project but never uses it offline, so a throwaway key is made.
 */
import { generateKeyPairSync } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
// miniprogram-ci ships CommonJS without ESM types for this entry.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ci = require('miniprogram-ci') as {
  Project: new (options: Record<string, unknown>) => unknown
  checkCodeQuality: (
    project: unknown,
  ) => Promise<{ name: string; success: boolean; text: string; detail?: unknown }[]>
}

const WEAPP_DIR = path.resolve(__dirname, '..', 'dist', 'weapp')

async function main(): Promise<number> {
  if (!existsSync(path.join(WEAPP_DIR, 'app.json'))) {
    console.error('缺少 dist/weapp：请先运行 npm run build')
    return 1
  }
  // The operators' pages are H5 only: not one of their files may reach the mini-program.
  if (existsSync(path.join(WEAPP_DIR, 'pages', 'operator'))) {
    console.error('  FAIL dist/weapp/pages/operator exists: the operators’ pages must stay H5 only')
    return 1
  }
  console.log('  ok   operators’ pages are not in the weapp build')
  const keyDir = mkdtempSync(path.join(tmpdir(), 'yx-mpci-'))
  try {
    const keyPath = path.join(keyDir, 'private.key')
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })
    writeFileSync(keyPath, privateKey.export({ type: 'pkcs1', format: 'pem' }))
    const project = new ci.Project({
      appid: 'wx0000000000000000',
      type: 'miniProgram',
      projectPath: WEAPP_DIR,
      privateKeyPath: keyPath,
      ignores: ['node_modules/**/*'],
    })
    const results = await ci.checkCodeQuality(project)
    let failed = 0
    for (const item of results) {
      if (!item.success) failed += 1
      console.log(
        `  ${item.success ? 'ok  ' : 'FAIL'} ${item.name.padEnd(32)} ${item.success ? '' : item.text}`,
      )
      if (!item.success && item.detail)
        console.log(`       ${JSON.stringify(item.detail).slice(0, 600)}`)
    }
    console.log(`weapp code quality: ${results.length - failed} of ${results.length} checks pass`)
    return failed === 0 ? 0 : 1
  } finally {
    rmSync(keyDir, { recursive: true, force: true })
  }
}

// miniprogram-ci leaves handles open after it answers, so the process exits explicitly.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
