import path from 'node:path'
import { defineConfig, type UserConfigExport } from '@tarojs/cli'
import type { IProjectConfig } from '@tarojs/taro/types/compile'
import { appEnv } from './app-env'
import { ComponentsPerFilePlugin } from './components-per-file'
import devConfig from './dev'
import { H5_MAX_WIDTH, PageFramePlugin, themeColorOf } from './h5-plugins'
import { MessagesOnlyStatsPlugin } from './messages-only-stats'
import { h5BuildId } from './source-hash'
import prodConfig from './prod'

const root = path.resolve(__dirname, '..')

// NutUI is drawn at 375 wide; our own styles at 750 (SPEC section 9: design width 750, device 375).
const designWidth = (input?: string | number | { file?: string }) =>
  typeof input === 'object' && input.file?.replace(/\\+/g, '/').includes('@nutui') ? 375 : 750

/**
 * Taro's H5 rem script grows the root font size with the screen (40 px at 750 wide for our design);
 * it stops at the spec's max width (SPEC section 9: max 800), where the page itself stops (h5-plugins).
 */
export const H5_MAX_ROOT_SIZE = (40 * H5_MAX_WIDTH) / 750

export default defineConfig<'webpack5'>(async (merge) => {
  const production = process.env.NODE_ENV !== 'development'
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
    // TARO_APP_* from the shell as well as from .env files; stops a weapp release without its origin.
    env: {
      ...appEnv(process.env, { taroEnv: process.env.TARO_ENV, production }),
      // The H5 build's id, the sources' hash (scripts/lib/h5-build.ts): the server serves the same
      // from dist/h5/.source-hash, and a page still running an older one offers 刷新.
      ...(process.env.TARO_ENV === 'h5' && production
        ? { TARO_APP_H5_BUILD: JSON.stringify(h5BuildId()) }
        : {}),
    },
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
      // index.html's <meta name="theme-color"> (the browser's bar): the brand colour, from the theme.
      htmlPluginOption: { themeColor: themeColorOf(root, 'src') },
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
        pxtransform: { enable: true, config: { maxRootSize: H5_MAX_ROOT_SIZE } },
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
  const config = merge(
    {},
    baseConfig,
    production ? prodConfig : devConfig,
  ) as IProjectConfig<'webpack5'>
  // A mode's own webpackChain (prod.ts) replaces the base one in the merge, so the frame is added here.
  const modeChain = config.h5?.webpackChain
  config.h5 = {
    ...config.h5,
    webpackChain(chain, webpack) {
      modeChain?.(chain, webpack)
      chain.plugin('page-frame').use(PageFramePlugin, [H5_MAX_WIDTH])
      // Each page chunk keeps only the Taro components its files use (config/components-per-file.ts).
      chain.plugin('components-per-file').use(ComponentsPerFilePlugin)
      // Taro's loggers ask for errors and warnings only (config/messages-only-stats.ts).
      chain.plugin('messages-only-stats').use(MessagesOnlyStatsPlugin)
    },
  }
  const miniModeChain = config.mini?.webpackChain
  config.mini = {
    ...config.mini,
    webpackChain(chain, webpack, PARSE_AST_TYPE) {
      miniModeChain?.(chain, webpack, PARSE_AST_TYPE)
      chain.plugin('messages-only-stats').use(MessagesOnlyStatsPlugin)
    },
  }
  return config
})
