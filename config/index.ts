import path from 'node:path'
import { defineConfig, type UserConfigExport } from '@tarojs/cli'
import devConfig from './dev'
import prodConfig from './prod'

const root = path.resolve(__dirname, '..')

// NutUI is drawn at 375 wide; our own styles at 750 (SPEC section 9: design width 750, device 375).
const designWidth = (input?: string | number | { file?: string }) =>
  typeof input === 'object' && input.file?.replace(/\\+/g, '/').includes('@nutui') ? 375 : 750

export default defineConfig<'webpack5'>(async (merge) => {
  const baseConfig: UserConfigExport<'webpack5'> = {
    projectName: 'yingxiang',
    date: '2026-11-22',
    designWidth,
    deviceRatio: { 640: 2.34 / 2, 750: 1, 375: 2, 828: 1.81 / 2 },
    sourceRoot: 'src',
    outputRoot: `dist/${process.env.TARO_ENV}`,
    plugins: [],
    alias: {
      '@': path.resolve(root, 'src'),
      '@contract': path.resolve(root, 'contract'),
    },
    defineConstants: {},
    copy: {
      // The browser asks every site for an icon; the mini-program has no use for one.
      patterns:
        process.env.TARO_ENV === 'h5'
          ? [{ from: 'src/assets/favicon.png', to: 'dist/h5/favicon.png' }]
          : [],
      options: {},
    },
    framework: 'react',
    compiler: { type: 'webpack5', prebundle: { enable: false } },
    cache: { enable: false },
    mini: {
      // The contract lives outside src/ and is compiled like app code.
      compile: { include: [path.resolve(root, 'contract')] },
      postcss: {
        pxtransform: { enable: true, config: { selectorBlackList: ['nut-'] } },
        cssModules: {
          enable: false,
          config: {
            namingPattern: 'module',
            generateScopedName: '[name]__[local]___[hash:base64:5]',
          },
        },
      },
      optimizeMainPackage: { enable: true },
    },
    h5: {
      publicPath: '/',
      staticDirectory: 'static',
      router: { mode: 'browser' },
      esnextModules: ['nutui-react'],
      compile: { include: [path.resolve(root, 'contract')] },
      output: {
        filename: 'js/[name].[contenthash:8].js',
        chunkFilename: 'js/[name].[contenthash:8].js',
      },
      miniCssExtractPluginOption: {
        ignoreOrder: true,
        filename: 'css/[name].[contenthash:8].css',
        chunkFilename: 'css/[name].[contenthash:8].css',
      },
      postcss: {
        autoprefixer: { enable: true, config: {} },
        pxtransform: { enable: true, config: {} },
        cssModules: {
          enable: false,
          config: {
            namingPattern: 'module',
            generateScopedName: '[name]__[local]___[hash:base64:5]',
          },
        },
      },
    },
  }
  if (process.env.NODE_ENV === 'development') return merge({}, baseConfig, devConfig)
  return merge({}, baseConfig, prodConfig)
})
