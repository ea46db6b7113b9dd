import settings

print(settings.SETTINGS)
