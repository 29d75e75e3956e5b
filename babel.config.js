// babel-preset-taro compiles the app for both targets; babel-plugin-import keeps NutUI on demand so
// each page only ships the components it uses.
module.exports = {
  presets: [['taro', { framework: 'react', ts: true, compiler: 'webpack5' }]],
  plugins: [
    [
      'import',
      {
        libraryName: '@nutui/nutui-react-taro',
        camel2DashComponentName: false,
        customName: (name) => `@nutui/nutui-react-taro/dist/es/packages/${name.toLowerCase()}`,
        customStyleName: (name) =>
          `@nutui/nutui-react-taro/dist/es/packages/${name.toLowerCase()}/style/css`,
      },
      'nutui-react-taro',
    ],
    // Icons one file each, never through the package's index: webpack keeps in the shared index every
    // icon used anywhere in the app, so each page's copy of it grew with every new page's icons (the
    // home chunk carried icons only other pages show).
    [
      'import',
      {
        libraryName: '@nutui/icons-react-taro',
        camel2DashComponentName: false,
        customName: (name) => `@nutui/icons-react-taro/dist/es/icons/${name}.js`,
        style: false,
      },
      'nutui-icons-react-taro',
    ],
  ],
}
